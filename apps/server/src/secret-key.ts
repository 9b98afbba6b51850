import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config, RuntimeConfig } from './config';

/**
 * SECRET_KEY from the environment, else the key kept in `DATA_DIR/secret_key`
 * (generated once, mode 0600), so every restart of one installation signs with
 * the same key without the operator having to invent one.
 */
export async function withSecretKey(config: Config): Promise<RuntimeConfig> {
  if (config.secretKey !== undefined) return { ...config, secretKey: config.secretKey };
  const file = path.join(config.dataDir, 'secret_key');
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length < 32)
      throw new Error(`${file} holds fewer than 32 characters: delete it or set SECRET_KEY`);
    return { ...config, secretKey: existing };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(config.dataDir, { recursive: true });
  const secretKey = randomBytes(48).toString('base64url');
  // `wx`: never overwrite a key another process wrote in the meantime.
  try {
    await writeFile(file, `${secretKey}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return withSecretKey(config);
    throw err;
  }
  await chmod(file, 0o600);
  return { ...config, secretKey };
}
