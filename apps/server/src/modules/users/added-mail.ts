import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { queueMail } from '../mail';
import { publicOrigin } from '../identity';
import { escapeHtml, htmlMail } from '../identity';

export interface AddedUser {
  email: string;
  firstName: string;
  lastName: string;
  username: string;
}

/**
 * Queue (inside `tx`) the e-mail telling an existing user that they were
 * added to an organization. It carries no secret: they sign in with the
 * password they already have and switch to the organization.
 */
export async function queueAddedToOrganizationMail(
  app: FastifyInstance,
  tx: Db,
  user: AddedUser,
  organization: { id: string; name: string },
  roleName: string,
): Promise<void> {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
  const signIn = `${publicOrigin(app.config)}/login`;
  const text = [
    `Hello ${name},`,
    '',
    `You were added to the organization ${organization.name} on Coldtrace, with the role ${roleName}.`,
    '',
    `Sign in with your existing username (${user.username}) and password, then choose ${organization.name} in the organization menu:`,
    signIn,
    '',
    'If you did not expect this, tell the administrator of that organization or of this server.',
  ].join('\n');
  await queueMail(app, tx, {
    to: [user.email],
    subject: `You were added to ${organization.name} on Coldtrace`,
    text,
    html: htmlMail([
      `Hello ${escapeHtml(name)},`,
      `You were added to the organization <b>${escapeHtml(organization.name)}</b> on Coldtrace, with the role ${escapeHtml(roleName)}.`,
      `Sign in with your existing username (<b>${escapeHtml(user.username)}</b>) and password, then choose ${escapeHtml(organization.name)} in the organization menu: <a href="${escapeHtml(signIn)}">sign in</a>.`,
      'If you did not expect this, tell the administrator of that organization or of this server.',
    ]),
    organizationId: organization.id,
  });
}
