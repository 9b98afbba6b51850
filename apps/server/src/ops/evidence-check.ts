import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client';
import { verifyEvidence } from '../modules/evidence';

/**
 * The evidence chain of every organization (or one), verified from outside the
 * server (`npm run verify-evidence`, and `npm run verify-backup` after a restore):
 * a line per organization, and every problem of a broken one.
 */
export async function checkEvidence(
  url: string,
  trustedKeys: readonly string[],
  write: (line: string) => void,
  organizationId?: string,
): Promise<boolean> {
  const handle = openDatabase(url, { max: 2 });
  try {
    const { rows } = await handle.db.execute<{ id: string; name: string }>(
      organizationId === undefined
        ? sql`SELECT id::text, name FROM organizations ORDER BY name, id`
        : sql`SELECT id::text, name FROM organizations WHERE id::text = ${organizationId}`,
    );
    if (rows.length === 0 && organizationId !== undefined) {
      write(`no organization ${organizationId}`);
      return false;
    }
    let allVerified = true;
    for (const org of rows) {
      const result = await verifyEvidence(handle.db, org.id, { trustedKeys });
      const figures =
        `${result.chains} chains, ${result.entries} entries, ${result.rows} rows, ` +
        `${result.anchors} anchors` +
        (result.last_anchor
          ? ` (last ${result.last_anchor.anchored_at}, sha256 ${result.last_anchor.payload_sha256.slice(0, 16)}…)`
          : '');
      if (result.verified) {
        write(`OK      ${org.name} (${org.id}): ${figures}`);
        continue;
      }
      allVerified = false;
      write(`BROKEN  ${org.name} (${org.id}): ${figures}`);
      for (const p of result.problems) write(`        ${p.kind}: ${p.message}`);
    }
    return allVerified;
  } finally {
    await handle.close();
  }
}
