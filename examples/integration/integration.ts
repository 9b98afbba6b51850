import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ColdtraceClient } from './client';
import type { components } from './schema';

/**
 * An integration written against the generated client (docs/api.md, "A client
 * generated from the OpenAPI document"): records in alarm, one record's series,
 * and a webhook receiver. apps/server/test/integration-example.test.ts runs it
 * against a real server.
 */

export type ColdtraceRecord = components['schemas']['Record'];
export type RecordSeries = components['schemas']['RecordSeries'];

/** Records whose computed status is Alarm, most recently active first; `total` counts every page. */
export async function recordsInAlarm(
  client: ColdtraceClient,
  pageSize = 100,
): Promise<{ records: ColdtraceRecord[]; total: number }> {
  const { data, error, response } = await client.GET('/api/devices/xt1/records/', {
    params: {
      query: {
        filter: 'computed_status__is=Alarm',
        order_by: '-last_action_taken',
        page_size: pageSize,
      },
    },
  });
  if (error) throw new Error(`records: ${response.status} ${error.message}`);
  return { records: data, total: Number(response.headers.get('x-total-count')) };
}

/** The compact temperature series of one record (`width` reduces it for a chart). */
export async function recordSeries(
  client: ColdtraceClient,
  recordId: string,
  width?: number,
): Promise<RecordSeries> {
  const { data, error, response } = await client.GET('/api/devices/aggregate/record-series/', {
    params: { query: { record_id: recordId, ...(width ? { width } : {}) } },
  });
  if (error) throw new Error(`series of ${recordId}: ${response.status} ${error.message}`);
  return data;
}

/**
 * A record's PDF report: generated (the call waits for it), then downloaded.
 * The download answers `application/pdf`, not JSON: openapi-fetch reads it with
 * `parseAs` (`arrayBuffer` here; `blob` or `stream` work too).
 */
export async function recordReportPdf(client: ColdtraceClient, recordId: string): Promise<Buffer> {
  const made = await client.POST('/api/devices/xt1/reports/pdf/', {
    body: { record_id: recordId },
  });
  if (made.error)
    throw new Error(`report of ${recordId}: ${made.response.status} ${made.error.message}`);
  // localUrl is the download call with its report_id.
  const reportId =
    new URL(made.data.localUrl ?? '', 'http://x').searchParams.get('report_id') ?? '';
  const file = await client.GET('/api/devices/xt1/reports/pdf/', {
    params: { query: { report_id: reportId } },
    parseAs: 'arrayBuffer',
  });
  if (file.error)
    throw new Error(`report ${reportId}: ${file.response.status} ${file.error.message}`);
  return Buffer.from(file.data);
}

/**
 * A webhook message (docs/api.md, "The message"), as the OpenAPI document's
 * `webhooks` declare it: the event says which `data` it carries.
 */
export type WebhookMessage =
  | components['schemas']['WebhookAlarmMessage']
  | components['schemas']['WebhookRecordMessage']
  | components['schemas']['WebhookDispositionMessage'];

export interface WebhookOptions {
  /** The webhook's secret, shown once when it was created. */
  secret: string;
  /** Handle one message; throw to answer 500 (Coldtrace retries the delivery). */
  onEvent: (message: WebhookMessage) => void | Promise<void>;
  /** Oldest accepted timestamp, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Delivery ids already handled (use your database in production). */
  seen?: Set<string>;
}

const MAX_BODY = 1024 * 1024;

/** `sha256=<hex HMAC-SHA256>` of `text` with `secret`, as Coldtrace signs. */
export const sign = (secret: string, text: string) =>
  `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`;

/** Constant-time comparison of a header with the expected signature. */
function same(header: string | string[] | undefined, expected: string): boolean {
  const given = Buffer.from(typeof header === 'string' ? header : '');
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * A node:http request listener that verifies `X-Coldtrace-Signature` (the raw
 * body) and `X-Coldtrace-Timestamp-Signature` (`<timestamp>.<raw body>`), refuses
 * old timestamps (replays), and hands each `X-Coldtrace-Delivery` to `onEvent`
 * once: a retry or redelivery of a handled delivery is answered 204 and skipped.
 *
 *   http.createServer(webhookHandler({ secret, onEvent })).listen(8080);
 */
export function webhookHandler(options: WebhookOptions) {
  const seen = options.seen ?? new Set<string>();
  const tolerance = options.toleranceSeconds ?? 300;
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      const answer = (status: number) => res.writeHead(status).end();
      if (req.method !== 'POST') return answer(405);
      if (size > MAX_BODY) return answer(413);
      const raw = Buffer.concat(chunks).toString('utf8'); // the raw body, before JSON.parse
      const timestamp = req.headers['x-coldtrace-timestamp'];
      const fresh =
        typeof timestamp === 'string' &&
        /^\d+$/.test(timestamp) &&
        Math.abs(Date.now() / 1000 - Number(timestamp)) <= tolerance;
      if (
        !fresh ||
        !same(req.headers['x-coldtrace-signature'], sign(options.secret, raw)) ||
        !same(
          req.headers['x-coldtrace-timestamp-signature'],
          sign(options.secret, `${timestamp}.${raw}`),
        )
      ) {
        return answer(401);
      }
      let message: WebhookMessage;
      try {
        message = JSON.parse(raw) as WebhookMessage;
      } catch {
        return answer(400);
      }
      const delivery = req.headers['x-coldtrace-delivery'];
      if (delivery !== message.id) return answer(400);
      if (seen.has(delivery)) return answer(204);
      Promise.resolve()
        .then(() => options.onEvent(message))
        .then(
          () => {
            seen.add(delivery);
            answer(204);
          },
          () => answer(500),
        );
    });
  };
}
