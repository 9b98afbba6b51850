/**
 * The configuration module's entry: the only way in from outside the module (issue 12).
 */
export { configurationRoutes } from './routes';
export { createConfigurationService } from './service';
