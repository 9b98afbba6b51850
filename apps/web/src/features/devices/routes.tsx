/** Pages of the devices feature, loaded lazily by the router. */
export { AllDevicesPage } from './all-devices-page';
