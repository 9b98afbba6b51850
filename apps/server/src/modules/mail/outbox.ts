import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { mailOutbox, type MailAttachment } from '../../db/schema-mail';
import { MAIL_SEND_JOB, publish } from '../../jobs/catalogue';

export interface OutgoingMail {
  to: string[];
  cc?: string[];
  bcc?: string[];
  subject: string;
  text: string;
  html?: string;
  /** Files attached (base64 content); kept in the outbox row until it is delivered. */
  attachments?: MailAttachment[];
  organizationId?: string | null;
  /** At most one message per key, ever: queueing the same key again does nothing. */
  dedupeKey?: string;
}

/**
 * Queue an e-mail inside the caller's transaction: the outbox row and its
 * `mail.send` job exist exactly when `tx` commits. The worker (`worker.ts`)
 * delivers it at most once per row; with a `dedupeKey` already in the outbox
 * nothing is queued.
 */
export async function queueMail(
  app: FastifyInstance,
  tx: Db,
  message: OutgoingMail,
): Promise<void> {
  const rows = await tx
    .insert(mailOutbox)
    .values({
      to: message.to,
      cc: message.cc ?? [],
      bcc: message.bcc ?? [],
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      attachments:
        message.attachments && message.attachments.length > 0 ? message.attachments : null,
      organizationId: message.organizationId ?? null,
      dedupeKey: message.dedupeKey ?? null,
    })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id });
  const row = rows[0];
  if (!row) return;
  await publish(app.jobs, MAIL_SEND_JOB, { outboxId: row.id }, { tx });
}
