/** The settings menu of the top bar and its dialogs (profile, units, notification settings). */
export { SettingsMenu } from './components/settings-menu';
export { TimeZoneSelect } from './components/time-zone-select';
