import { TimeZoneAutocomplete } from '../../../components/time-zone-autocomplete';

/**
 * The time zone dropdown (spec section 2): UTC and the browser's own zone
 * first, then a divider, then the other supported zones; underscores are shown
 * as spaces. Searchable by name and UTC offset.
 */
export function TimeZoneSelect({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (timeZone: string) => void;
  disabled?: boolean;
}) {
  return <TimeZoneAutocomplete value={value} onChange={onChange} disabled={disabled} />;
}
