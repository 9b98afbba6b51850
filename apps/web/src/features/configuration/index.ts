/**
 * Configuration: products, carriers, travel locations and the geo-fence. The
 * page loads lazily through `./routes`. Other features may use the dropdown
 * bundle (products, origins, destinations, carriers) for their shipment forms;
 * every configuration save refreshes it.
 */
export {
  dropdownInfoQueryOptions,
  getDropdownInfo,
  useDropdownInfo,
} from './api/get-dropdown-info';
export { configurationKeys } from './api/query-keys';
/** The organization's settings (the record page's decision dialog reads allow_release_in_transit). */
export { useOrgSettings } from './api/get-org-settings';
/** Address lists as typed in the notification forms (the record page's alarm recipients too). */
export { isEmailAddress, parseAddressList } from './notification-forms';
