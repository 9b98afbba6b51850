import { expect } from '@playwright/test';

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
