/**
 * The settings menu of the top bar. Its menu and dialogs (profile, password, units,
 * notification settings) load on first use.
 */
export { SettingsMenu } from './components/settings-menu';
