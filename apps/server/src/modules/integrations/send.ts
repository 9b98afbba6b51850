import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkWebhookUrl, type Resolver } from './addresses';
import { signature } from './secrets';

/**
 * One attempt at most, from the host's resolution to the answer's status: well
 * within the lease of the `webhook.deliver` job (`WEBHOOK_LEASE_SECONDS`).
 */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_USER_AGENT = 'Coldtrace-Webhooks/1.0';

export interface SendResult {
  success: boolean;
  responseCode: number | null;
  durationMs: number;
  error: string | null;
}

/** A lookup that answers only the checked addresses: every one (happy eyeballs tries them in turn), or the first. */
function pinnedLookup(addresses: readonly { address: string; family: number }[]): LookupFunction {
  const pinned = addresses[0]!;
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
    else callback(null, pinned.address, pinned.family);
  };
}

/** The request's headers: the event, the delivery id and the body's signatures (plain and timestamped). */
function signedHeaders(input: { secret: string; event: string; deliveryId: string; body: string }) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(input.body)),
    'user-agent': WEBHOOK_USER_AGENT,
    'x-coldtrace-event': input.event,
    'x-coldtrace-delivery': input.deliveryId,
    'x-coldtrace-signature': signature(input.secret, input.body),
    'x-coldtrace-timestamp': timestamp,
    'x-coldtrace-timestamp-signature': signature(input.secret, `${timestamp}.${input.body}`),
  };
}

/**
 * One attempt: the host is resolved and checked again (a name that turned
 * private since it was saved is refused) and the connection goes to the
 * checked address (no second lookup: DNS rebinding cannot swap it). A 2xx
 * answer is success; a redirect is not followed (it is a failure), nor is
 * anything else; 10 s at most, the resolution included.
 */
export async function sendDelivery(input: {
  url: string;
  secret: string;
  event: string;
  deliveryId: string;
  body: string;
  allowPrivate: boolean;
  /** Tests: the host names' addresses (the system resolver otherwise). */
  resolve?: Resolver;
}): Promise<SendResult> {
  const started = Date.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...r,
    durationMs: Date.now() - started,
  });
  const timedOut = () => ({
    success: false,
    responseCode: null,
    error: `timed out after ${WEBHOOK_TIMEOUT_MS / 1000} s`,
  });
  let checked;
  let resolving: NodeJS.Timeout | undefined;
  try {
    checked = await Promise.race([
      checkWebhookUrl(input.url, input.allowPrivate, input.resolve),
      new Promise<null>((resolve) => (resolving = setTimeout(resolve, WEBHOOK_TIMEOUT_MS, null))),
    ]);
  } catch (err) {
    return done({ success: false, responseCode: null, error: short(messageOf(err)) });
  } finally {
    clearTimeout(resolving);
  }
  if (checked === null) return done(timedOut());
  const { url, addresses } = checked;
  const lookup = pinnedLookup(addresses);
  const headers = signedHeaders(input);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const req = client.request(url, { method: 'POST', headers, lookup, agent: false }, (res) => {
      const code = res.statusCode ?? 0;
      res.resume();
      res.on('error', () => undefined);
      const ok = code >= 200 && code < 300;
      const error = ok
        ? null
        : code >= 300 && code < 400
          ? `HTTP ${code}: redirect not followed`
          : `HTTP ${code}`;
      finish({ success: ok, responseCode: code, error });
      req.destroy();
    });
    const timer = setTimeout(
      () => {
        finish(timedOut());
        req.destroy();
      },
      Math.max(0, started + WEBHOOK_TIMEOUT_MS - Date.now()),
    );
    req.on('error', (err) =>
      finish({ success: false, responseCode: null, error: short(err.message) }),
    );
    req.end(input.body);
  });
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
const short = (text: string) => (text.length > 300 ? `${text.slice(0, 297)}...` : text);
