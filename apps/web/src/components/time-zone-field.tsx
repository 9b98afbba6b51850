import { TimeZoneAutocomplete } from './time-zone-autocomplete';

/**
 * A time zone input for forms (spec section 2, "Time zone dropdown"): UTC
 * and the browser's own zone first, a divider, then the other supported
 * zones, underscores shown as spaces, searchable by name and UTC offset. With
 * `noneLabel`, a first entry with the value '' lets the user leave the zone
 * unset. Shows helper or error text.
 */
export const TimeZoneField = TimeZoneAutocomplete;
