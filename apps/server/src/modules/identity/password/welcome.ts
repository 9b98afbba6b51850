import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../db/client';
import { queueMail } from '../../mail';
import { passwordLink } from './links';
import { issueToken } from './tokens';

export interface WelcomeUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  username: string;
}

/**
 * Issue a welcome token for a newly registered user and queue the welcome
 * e-mail (link `/welcome/{uuid}/{token}`), both inside `tx`.
 */
export async function queueWelcomeMail(
  app: FastifyInstance,
  tx: Db,
  user: WelcomeUser,
): Promise<void> {
  const token = await issueToken(tx, user.id, 'welcome', app.config.passwordResetTtlHours);
  const link = passwordLink(app.config, 'welcome', user.id, token);
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
  const hours = app.config.passwordResetTtlHours;
  const text = [
    `Hello ${name},`,
    '',
    `An account has been created for you on Coldtrace. Your username is ${user.username}.`,
    '',
    'Choose your password here:',
    link,
    '',
    `The link works once and expires in ${hours} hours.`,
  ].join('\n');
  await queueMail(app, tx, {
    to: [user.email],
    subject: 'Welcome to Coldtrace',
    text,
    html: htmlMail([
      `Hello ${escapeHtml(name)},`,
      `An account has been created for you on Coldtrace. Your username is <b>${escapeHtml(user.username)}</b>.`,
      `<a href="${escapeHtml(link)}">Choose your password</a>`,
      `The link works once and expires in ${hours} hours.`,
    ]),
  });
}

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** Minimal HTML body: one paragraph per entry (entries are already escaped). */
export function htmlMail(paragraphs: string[]): string {
  return `<!doctype html><html><body>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</body></html>`;
}
