import type { RuntimeConfig } from '../../../config';
import { servedOrigin } from '../../../public-origin';
import type { SecretLinkRoute } from '../../mail';

/** What a link's origin is made of: PUBLIC_ORIGIN, else the server's HOST and PORT. */
export type LinkOriginConfig = Pick<RuntimeConfig, 'publicOrigin' | 'host' | 'port'>;

/**
 * Where every link the server writes points (welcome, reset, invitation and
 * alarm e-mails): PUBLIC_ORIGIN, else the origin the server serves
 * (`servedOrigin`: `http://localhost:{PORT}` for a wildcard or loopback HOST,
 * else `http://{HOST}:{PORT}`); the server warns at start when it is unset.
 * Not the request's origin: most mails are written by jobs, which have none.
 */
export function publicOrigin(config: LinkOriginConfig): string {
  return config.publicOrigin ?? servedOrigin(config);
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
