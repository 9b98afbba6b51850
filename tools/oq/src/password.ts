/**
 * Asks for a password on the terminal without echoing it (raw mode: each key is
 * read as it is typed; Enter ends, Backspace removes, Ctrl-C quits). Without a
 * terminal, reads the first line of standard input (a pipe).
 */
export function readPassword(prompt: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(prompt);
  if (!input.isTTY) {
    return new Promise((resolve) => {
      let text = '';
      input.setEncoding('utf8');
      input.on('data', (chunk: string) => (text += chunk));
      input.on('end', () => resolve(text.split(/\r?\n/)[0] ?? ''));
    });
  }
  return new Promise((resolve) => {
    let password = '';
    input.setRawMode(true);
    input.setEncoding('utf8');
    input.resume();
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') {
          input.setRawMode(false);
          input.pause();
          input.off('data', onData);
          process.stderr.write('\n');
          resolve(password);
          return;
        }
        if (ch === '\u0003') {
          process.stderr.write('\n');
          process.exit(130);
        }
        if (ch === '\u007f' || ch === '\b') password = password.slice(0, -1);
        else password += ch;
      }
    };
    input.on('data', onData);
  });
}
