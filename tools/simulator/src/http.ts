/** The transport of the simulator: the HTTP client and the driver that sends plans with it. */
export * from './api-client';
export * from './driver';
