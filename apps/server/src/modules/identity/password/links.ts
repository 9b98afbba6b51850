import type { RuntimeConfig } from '../../../config';
import type { SecretLinkRoute } from '../../mail';

/** Where e-mailed links point: PUBLIC_ORIGIN, or the default local address. */
export const DEFAULT_PUBLIC_ORIGIN = 'http://localhost:8000';

export type LinkOriginConfig = Pick<RuntimeConfig, 'publicOrigin'>;

export function publicOrigin(config: LinkOriginConfig): string {
  return config.publicOrigin ?? DEFAULT_PUBLIC_ORIGIN;
}

/** The one-time routes whose tokens are password tokens (`tokens.ts`): `/{route}/{user id}/{token}`. */
export const PASSWORD_LINK_ROUTES = [
  'passwordreset',
  'welcome',
] as const satisfies readonly SecretLinkRoute[];
export type PasswordLinkRoute = (typeof PASSWORD_LINK_ROUTES)[number];

/**
 * A one-time link with its secret. The mail worker removes such links from the
 * stored body once the mail is delivered, `tokens.ts` once the token is used,
 * revoked or expired, and the request log hides the token (`logger.ts`): keep
 * new one-time routes in `SECRET_LINK_ROUTES`.
 */
export function passwordLink(
  config: LinkOriginConfig,
  mode: PasswordLinkRoute,
  userId: string,
  token: string,
): string {
  return `${publicOrigin(config)}/${mode}/${encodeURIComponent(userId)}/${encodeURIComponent(token)}`;
}
