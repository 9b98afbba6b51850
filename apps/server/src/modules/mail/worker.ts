import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { mailOutbox, type MailOutboxRow } from '../../db/schema-mail';
import { MAIL_RETRY_LIMIT, type JobData, type MAIL_SEND_JOB } from '../../jobs/catalogue';
import type { JobContext } from '../../jobs/queue';
import { alarmMailSent } from '../../observability/alarm-latency';
import { metrics } from '../../observability/metrics';
import { scrubbedBody } from './secret-links';

const LINK = /https?:\/\/\S+/g;

/** The Message-ID of an outbox row: the same on every attempt, so a receiver can drop a repeat. */
export function messageIdOf(outboxId: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'coldtrace.local';
  return `<${outboxId}@${domain}>`;
}

export interface MailTransport {
  send(row: MailOutboxRow, from: string): Promise<void>;
  close(): void;
}

function smtpTransport(url: string): MailTransport {
  const transporter: Transporter = nodemailer.createTransport(url);
  return {
    async send(row, from) {
      await transporter.sendMail({
        from,
        to: row.to,
        ...(row.cc.length > 0 ? { cc: row.cc } : {}),
        ...(row.bcc.length > 0 ? { bcc: row.bcc } : {}),
        subject: row.subject,
        text: row.text,
        ...(row.html !== null ? { html: row.html } : {}),
        ...(row.attachments
          ? {
              attachments: row.attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                content: Buffer.from(a.content, 'base64'),
              })),
            }
          : {}),
        messageId: messageIdOf(row.id, from),
      });
    },
    close: () => transporter.close(),
  };
}

/**
 * The `mail.send` worker (settings in the job catalogue). Each job delivers one outbox row: the row is locked
 * (`FOR UPDATE SKIP LOCKED`) for the whole attempt, a row already sent is
 * skipped, and it is marked sent in the same transaction. A crash or an
 * unreachable SMTP server leaves the row queued and the job retries with
 * back-off. Without SMTP_URL the message is kept in the outbox (status
 * `logged`) and its subject, recipients and links are printed to the log:
 * that is the documented way to sign in on a machine without mail (the stored
 * copy loses the link when it is used, superseded or expired: `scrub.ts`, called
 * by the owners of the tokens). With SMTP nothing of the body is logged, and once
 * the mail is delivered (or given up) the stored body keeps no one-time link
 * (`secret-links.ts`).
 */
export function mailSendWorker(app: FastifyInstance) {
  const { smtpUrl, from } = app.config.mail;
  const transport = smtpUrl ? smtpTransport(smtpUrl) : undefined;
  if (transport) app.addHook('onClose', async () => transport.close());

  return async ({ outboxId }: JobData<typeof MAIL_SEND_JOB>, job: JobContext): Promise<void> => {
    const failure = await app.db.transaction(async (tx) => {
      const locked = await tx.execute<{ id: string }>(
        sql`SELECT id FROM mail_outbox WHERE id = ${outboxId} FOR UPDATE SKIP LOCKED`,
      );
      // Gone, or another worker holds it (and will finish it).
      if (locked.rows.length === 0) return undefined;
      const [row] = await tx.select().from(mailOutbox).where(eq(mailOutbox.id, outboxId));
      if (!row || row.status === 'sent' || row.status === 'logged') return undefined;
      if (!transport) {
        app.log.info(
          {
            mail: {
              id: row.id,
              to: row.to,
              cc: row.cc,
              subject: row.subject,
              links: row.text.match(LINK) ?? [],
            },
          },
          'mail kept in the outbox (no SMTP_URL configured)',
        );
        await tx
          .update(mailOutbox)
          .set({ status: 'logged', attempts: row.attempts + 1, sentAt: new Date() })
          .where(eq(mailOutbox.id, row.id));
        return undefined;
      }
      try {
        await transport.send(row, from);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const final = job.retryCount >= MAIL_RETRY_LIMIT;
        metrics.mailFailed(final);
        await tx
          .update(mailOutbox)
          .set({
            attempts: row.attempts + 1,
            lastError: message.slice(0, 1000),
            status: final ? 'failed' : 'queued',
            // Given up: the link will never be needed again.
            ...(final ? scrubbedBody(row) : {}),
          })
          .where(eq(mailOutbox.id, row.id));
        return new Error(`mail ${row.id} not delivered: ${message}`);
      }
      await tx
        .update(mailOutbox)
        .set({
          status: 'sent',
          attempts: row.attempts + 1,
          lastError: null,
          sentAt: new Date(),
          ...scrubbedBody(row),
        })
        .where(eq(mailOutbox.id, row.id));
      void alarmMailSent(app.db, row);
      return undefined;
    });
    // Thrown after the commit, so the attempt and its error stay recorded.
    if (failure) throw failure;
  };
}
