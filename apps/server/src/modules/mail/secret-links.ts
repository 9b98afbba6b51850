/**
 * One-time links (spec section 2): `/passwordreset/{uuid}/{token}` and
 * `/welcome/{uuid}/{token}` carry a secret that signs the holder in. The
 * outbox needs the link until the mail is delivered; after that the stored
 * body keeps a placeholder instead (the row stays, for the notification log).
 */
export const SECRET_LINK_ROUTES = ['passwordreset', 'welcome'] as const;
export type SecretLinkRoute = (typeof SECRET_LINK_ROUTES)[number];

export const REMOVED_LINK = '[one-time link removed after delivery]';

/** An absolute link to a one-time route: two path segments (uuid, token) after the route. */
const SECRET_LINK = new RegExp(
  String.raw`https?://[^\s"'<>]*?/(?:${SECRET_LINK_ROUTES.join('|')})/[^\s"'<>/?#]+/[^\s"'<>]+`,
  'g',
);

export function withoutSecretLinks(text: string): string {
  return text.replace(SECRET_LINK, REMOVED_LINK);
}
