import { authCalls } from './auth';

/** Every call the server serves; the server registers exactly these, the OpenAPI document lists them. */
export const allCalls = [...authCalls] as const;
