import { and, eq, gte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mailOutbox } from '../../db/schema-mail';
import {
  SECRET_LINK_ROUTES,
  scrubbedBody,
  secretLinksIn,
  type SecretLink,
  type SecretLinkRoute,
} from './secret-links';

/**
 * Which one-time links of the stored mail (`mail_outbox`) are meant; every
 * field given must hold (ids and tokens as the link carries them).
 */
export interface SecretLinkFilter {
  /** One stored mail only. */
  outboxId?: string;
  /** Links to these routes only (default: every one-time route, `SECRET_LINK_ROUTES`). */
  routes?: readonly SecretLinkRoute[];
  /** Links whose first segment is this id (a user's for password links, an invitation's). */
  id?: string;
  /** Links carrying this token. */
  token?: string;
  /**
   * When the link was issued: only mail stored since then can hold it, so the
   * search reads the new mail, not the whole outbox (a link and its mail are
   * written in one transaction; an hour's margin covers its length).
   */
  issuedAt?: Date;
}

/** How long before a link's issue its mail may have been stored (the transaction's start). */
const ISSUE_MARGIN_MS = 3_600_000;

/** A one-time link still written in a stored mail. */
export interface StoredSecretLink extends SecretLink {
  outboxId: string;
}

/** The body's text and html, as one string to search. */
const BODY = sql`(${mailOutbox.text} || coalesce(${mailOutbox.html}, ''))`;
const contains = (needle: string) => sql`strpos(${BODY}, ${needle}) > 0`;

/** The stored mails that may hold a link of the filter (narrowed in SQL, then matched exactly). */
async function candidates(db: Db, filter: SecretLinkFilter) {
  const routes = filter.routes ?? SECRET_LINK_ROUTES;
  const id = filter.id === undefined ? '' : `${encodeURIComponent(filter.id)}/`;
  const where: (SQL | undefined)[] = [
    or(...routes.map((route) => contains(`/${route}/${id}`))),
    filter.outboxId === undefined ? undefined : eq(mailOutbox.id, filter.outboxId),
    filter.token === undefined ? undefined : contains(encodeURIComponent(filter.token)),
    filter.issuedAt === undefined
      ? undefined
      : gte(mailOutbox.created, new Date(filter.issuedAt.getTime() - ISSUE_MARGIN_MS)),
  ];
  const rows = await db
    .select({ id: mailOutbox.id, text: mailOutbox.text, html: mailOutbox.html })
    .from(mailOutbox)
    .where(and(...where));
  const routeSet = new Set<string>(routes);
  const matches = (link: SecretLink) =>
    routeSet.has(link.route) &&
    (filter.id === undefined || link.id === encodeURIComponent(filter.id)) &&
    (filter.token === undefined || link.token === encodeURIComponent(filter.token));
  return { rows, matches };
}

/**
 * The one-time links of the filter still written in stored mail, one entry per
 * mail and link (a link in both the text and the html is listed once). For a
 * caller that must ask its own tokens which links died (the password module's
 * daily sweep), then scrubs those with {@link scrubSecretLinks}.
 */
export async function storedSecretLinks(
  db: Db,
  filter: SecretLinkFilter,
): Promise<StoredSecretLink[]> {
  const { rows, matches } = await candidates(db, filter);
  const found = new Map<string, StoredSecretLink>();
  for (const row of rows) {
    for (const link of secretLinksIn(`${row.text}\n${row.html ?? ''}`).filter(matches)) {
      found.set(`${row.id} ${link.route}/${link.id}/${link.token}`, { ...link, outboxId: row.id });
    }
  }
  return [...found.values()];
}

/**
 * Clears one-time links out of the stored mail, as delivery does
 * (`worker.ts`): each link the filter names, in the text and the html, becomes
 * `[one-time link removed]`; the rest of the mail stays. Call it in the
 * transaction that uses up, revokes or expires the link's token, so the copy in
 * `mail_outbox` never holds a secret longer than the link works:
 *
 *   await scrubSecretLinks(tx, { routes: ['invitation'], token, issuedAt });          // used
 *   await scrubSecretLinks(tx, { routes: ['invitation'], id: invitationId, issuedAt }); // revoked
 *   await scrubSecretLinks(tx, { outboxId });                               // one mail
 *
 * Answers how many stored mails changed.
 */
export async function scrubSecretLinks(db: Db, filter: SecretLinkFilter): Promise<number> {
  const { rows, matches } = await candidates(db, filter);
  let changed = 0;
  for (const row of rows) {
    const body = scrubbedBody(row, matches);
    if (body.text === row.text && body.html === row.html) continue;
    await db.update(mailOutbox).set(body).where(eq(mailOutbox.id, row.id));
    changed += 1;
  }
  return changed;
}
