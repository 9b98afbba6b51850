/**
 * The simulator library. The generator (catalogue, random, geo, profiles,
 * shipment, steps) is pure and deterministic for a seed: the first-start demo
 * data of the server uses it too. The transport (api-client, driver) drives
 * the public HTTP API.
 */
export * from './random';
export * from './catalogue';
export * from './geo';
export * from './profiles';
export * from './shipment';
export * from './steps';
