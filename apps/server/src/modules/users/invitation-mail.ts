import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { escapeHtml, htmlMail, publicOrigin } from '../identity';
import { queueMail } from '../mail';

export interface InvitationMail {
  invitationId: string;
  token: string;
  email: string;
  /** The name the administrator typed. */
  name: string;
  organization: { id: string; name: string };
  roleName: string;
  invitedBy: string;
  expiresAt: Date;
  /** The address already has an account: sign in and accept, rather than create one. */
  accountExists: boolean;
}

/** The invitation link: `/invitation/{uuid}/{token}` (a one-time route, `SECRET_LINK_ROUTES`). */
export function invitationLink(app: FastifyInstance, invitationId: string, token: string): string {
  return `${publicOrigin(app.config)}/invitation/${encodeURIComponent(invitationId)}/${encodeURIComponent(token)}`;
}

/**
 * Queue (inside `tx`) the invitation e-mail. Only the invited person reads it, so
 * it may say whether their address already has an account; the administrator's
 * reply never does.
 */
export async function queueInvitationMail(
  app: FastifyInstance,
  tx: Db,
  mail: InvitationMail,
): Promise<void> {
  const link = invitationLink(app, mail.invitationId, mail.token);
  const what = `${mail.invitedBy} invited you to join the organization ${mail.organization.name} on Coldtrace, with the role ${mail.roleName}.`;
  const how = mail.accountExists
    ? 'You already have a Coldtrace account with this e-mail address: open the link, sign in as usual and accept. Nothing changes for your account until you do.'
    : 'Open the link to choose your username and password; you become a member when you do.';
  const hours = Math.round((mail.expiresAt.getTime() - Date.now()) / 3_600_000);
  const until = `The link works once and expires in ${hours} hours. If you did not expect this, ignore this e-mail or decline on the page.`;
  await queueMail(app, tx, {
    to: [mail.email],
    subject: `Invitation to join ${mail.organization.name} on Coldtrace`,
    text: [`Hello ${mail.name},`, '', what, '', how, link, '', until].join('\n'),
    html: htmlMail([
      `Hello ${escapeHtml(mail.name)},`,
      escapeHtml(what),
      `${escapeHtml(how)} <a href="${escapeHtml(link)}">Open the invitation</a>`,
      escapeHtml(until),
    ]),
    organizationId: mail.organization.id,
  });
}
