/**
 * One-time links (spec section 2): `/passwordreset/{uuid}/{token}` and
 * `/welcome/{uuid}/{token}` carry a secret that signs the holder in. The
 * outbox needs the link until the mail is delivered (or, without SMTP_URL,
 * until the link is used or expires); after that the stored body keeps a
 * placeholder instead (the row stays, for the notification log).
 */
export const SECRET_LINK_ROUTES = ['passwordreset', 'welcome', 'invitation'] as const;
export type SecretLinkRoute = (typeof SECRET_LINK_ROUTES)[number];

export const REMOVED_LINK = '[one-time link removed]';

/** A one-time link found in a mail body, its segments as written in the link. */
export interface SecretLink {
  route: SecretLinkRoute;
  /** The first segment: whose link it is (a user's or an invitation's id). */
  id: string;
  /** The second segment: the secret. */
  token: string;
}

/** An absolute link to a one-time route: two path segments (uuid, token) after the route. */
const SECRET_LINK = new RegExp(
  String.raw`https?://[^\s"'<>]*?/(${SECRET_LINK_ROUTES.join('|')})/([^\s"'<>/?#]+)/([^\s"'<>]+)`,
  'g',
);

/** The one-time links in `text`, in order (a link written twice is listed twice). */
export function secretLinksIn(text: string): SecretLink[] {
  return [...text.matchAll(SECRET_LINK)].map(([, route, id, token]) => ({
    route: route as SecretLinkRoute,
    id: id!,
    token: token!,
  }));
}

/** `text` with its one-time links (those `drop` picks; default all) replaced by {@link REMOVED_LINK}. */
export function withoutSecretLinks(
  text: string,
  drop: (link: SecretLink) => boolean = () => true,
): string {
  return text.replace(SECRET_LINK, (whole: string, route: string, id: string, token: string) =>
    drop({ route: route as SecretLinkRoute, id, token }) ? REMOVED_LINK : whole,
  );
}

/**
 * A stored mail's body (text and html) without its one-time links (those `drop`
 * picks; default all): what a delivered mail keeps, and what a used or expired
 * link leaves behind (`scrub.ts`).
 */
export function scrubbedBody(
  body: { text: string; html: string | null },
  drop?: (link: SecretLink) => boolean,
): { text: string; html: string | null } {
  return {
    text: withoutSecretLinks(body.text, drop),
    html: body.html === null ? null : withoutSecretLinks(body.html, drop),
  };
}
