import type { RuntimeConfig } from '../../../config';
import type { SecretLinkRoute } from '../../mail';

/** Where e-mailed links point: PUBLIC_ORIGIN, or the default local address. */
export const DEFAULT_PUBLIC_ORIGIN = 'http://localhost:8000';

export function publicOrigin(config: Pick<RuntimeConfig, 'publicOrigin'>): string {
  return config.publicOrigin ?? DEFAULT_PUBLIC_ORIGIN;
}

/**
 * A one-time link with its secret. The mail worker removes such links from the
 * stored body once the mail is delivered, and the request log hides the token
 * (`logger.ts`): keep new one-time routes in `SECRET_LINK_ROUTES`.
 */
export function passwordLink(
  config: Pick<RuntimeConfig, 'publicOrigin'>,
  mode: SecretLinkRoute,
  userId: string,
  token: string,
): string {
  return `${publicOrigin(config)}/${mode}/${encodeURIComponent(userId)}/${encodeURIComponent(token)}`;
}
