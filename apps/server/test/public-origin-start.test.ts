import { describe, expect, it } from 'vitest';
import { lastMailTo } from './mail-helpers';
import { useServerProcesses } from './server-process';
import { eventually, freePort } from './smtp-sink';

/**
 * The real server process without PUBLIC_ORIGIN, as in production (NODE_ENV
 * production): it warns once at start, and its e-mails link to the port it
 * serves (issue 35, item 5).
 */

describe('a server started without PUBLIC_ORIGIN [FEAT-DEPLOYMENT]', () => {
  // The in-process app takes no jobs: the server process writes the mail.
  const processes = useServerProcesses('origin', { jobs: { runWorkers: false } });

  it('warns once at start and mails links to the port it serves', { timeout: 60_000 }, async () => {
    const t = processes.t;
    const port = await freePort();
    const server = await processes.start(port, { NODE_ENV: 'production', PUBLIC_ORIGIN: '' });
    const warning =
      `PUBLIC_ORIGIN is not set: links in e-mails point to http://localhost:${port}; ` +
      'set it to the address users reach';
    const output = await eventually(
      () => server.output.join(''),
      (out) => out.includes('PUBLIC_ORIGIN is not set'),
    );
    expect(output).toContain(warning);
    expect(output.split('PUBLIC_ORIGIN is not set').length - 1).toBe(1);

    // A reset mail, asked of the server process: its link goes to the port served.
    const user = await t.createUser();
    const csrf = await fetch(`http://127.0.0.1:${port}/api/auth/csrf/`);
    const token = /csrftoken=([^;]+)/.exec(csrf.headers.get('set-cookie') ?? '')?.[1];
    expect(token).toBeDefined();
    const res = await fetch(`http://127.0.0.1:${port}/api/auth/password-reset/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `csrftoken=${token}`,
        'x-csrftoken': token!,
      },
      body: JSON.stringify({ email: user.email }),
    });
    expect(res.status, await res.text()).toBe(204);
    const mail = await eventually(
      () => lastMailTo(t, user.email),
      (m) => m !== undefined,
    );
    expect(mail!.text).toContain(`http://localhost:${port}/passwordreset/${user.id}/`);
  });
});
