/** Organizations: the top bar switcher. The admin pages load lazily through `./routes`. */
export { OrganizationSwitcher } from './components/organization-switcher';
