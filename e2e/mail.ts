import { expect, type APIRequestContext } from '@playwright/test';
import { getJson } from './api';

/**
 * Mail the e2e server sent, captured by the SMTP sink `start-server.mjs`
 * runs (see `mail-sink.mjs`). Reuse in any browser test that follows a link
 * from an e-mail.
 */
export interface CapturedMail {
  messageId: string;
  from: string | null;
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

const MAIL_API = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8123) + 3}`;

/** Every message sent to `to` so far, oldest first. */
export async function fetchMails(to: string): Promise<CapturedMail[]> {
  const res = await fetch(`${MAIL_API}/messages?to=${encodeURIComponent(to)}`);
  if (!res.ok) throw new Error(`mail sink answered ${res.status}`);
  return (await res.json()) as CapturedMail[];
}

/** Waits (up to `timeoutMs`) for a message to `to` matching `predicate`; answers the newest such. */
export async function waitForMail(
  to: string,
  predicate: (mail: CapturedMail) => boolean = () => true,
  timeoutMs = 30_000,
): Promise<CapturedMail> {
  let found: CapturedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await fetchMails(to)).filter(predicate).at(-1);
        return found !== undefined;
      },
      { timeout: timeoutMs, message: `an e-mail to ${to}` },
    )
    .toBe(true);
  return found!;
}

/** The first link in a mail's text whose path starts with `pathPrefix` (e.g. '/passwordreset/'). */
export function linkIn(mail: CapturedMail, pathPrefix: string): string {
  for (const match of mail.text.matchAll(/https?:\/\/\S+/g)) {
    const url = new URL(match[0]);
    if (url.pathname.startsWith(pathPrefix)) return url.pathname + url.search;
  }
  throw new Error(`no ${pathPrefix} link in the mail '${mail.subject}'`);
}

interface LogEntry {
  to_list?: string[];
  cc_list?: string[];
  bcc_list?: string[];
  step?: 'reminder' | 'escalation' | null;
}

/**
 * The first e-mails about a record to one address, counted in the mailbox and
 * in the notification log (reminders and escalations left out). The log is the
 * state that would show a second e-mail: an entry is written for each e-mail in
 * the transaction that queues it, and the outbox delivers a queued e-mail once
 * (apps/server/src/modules/mail/mail.test.ts). The two agreeing on one, once
 * the first has arrived, means no second one is on its way: no need to wait
 * and see.
 */
export async function firstMailsAbout(
  api: APIRequestContext,
  recordId: string,
  to: string,
  about: (mail: CapturedMail) => boolean,
): Promise<{ delivered: number; logged: number }> {
  const log = await getJson<LogEntry[]>(
    api,
    `/api/notifications/log/?record_id=${recordId}&page_size=100`,
  );
  const logged = log.filter(
    (entry) =>
      (entry.step ?? null) === null &&
      [...(entry.to_list ?? []), ...(entry.cc_list ?? []), ...(entry.bcc_list ?? [])].includes(to),
  ).length;
  const delivered = (await fetchMails(to)).filter(about).length;
  return { delivered, logged };
}
