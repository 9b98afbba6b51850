import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';

/** True when `dir` does not exist or holds nothing. */
export async function isEmptyOrMissing(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return true;
  return (await readdir(dir)).length === 0;
}

/** Refuse to write into a folder that holds anything: a backup or a restore never overwrites. */
export async function assertFresh(dir: string, what: string): Promise<void> {
  if (!(await isEmptyOrMissing(dir))) {
    throw new Error(
      `${what} ${dir} is not empty: refusing to overwrite it. Choose a new folder (or empty it yourself).`,
    );
  }
}
