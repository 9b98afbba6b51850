import type { TExcursionAlarm } from '@coldtrace/contract';
import type { Db } from '../../db/client';
import { notFound } from '../../kernel/errors';
import { parseRowId } from '../../kernel/ids';
import { findRecordRow, listAlarms, presentAlarm } from '../records';

/** `GET alarms/`: the organization's alarms (of one record), newest first. */
export async function alarmsCall(
  db: Db,
  organizationId: string,
  q: {
    record_id?: string | undefined;
    include_acknowledged?: boolean | undefined;
    include_dismissed?: boolean | undefined;
    include_closed?: boolean | undefined;
  },
): Promise<TExcursionAlarm[]> {
  let recordId: number | undefined;
  if (q.record_id !== undefined) {
    const id = parseRowId(q.record_id);
    const row = id === undefined ? undefined : await findRecordRow(db, organizationId, id);
    if (!row) throw notFound(`Record '${q.record_id}'`, 'record_id');
    recordId = row.id;
  }
  const rows = await listAlarms(db, organizationId, {
    recordId,
    includeAcknowledged: q.include_acknowledged ?? false,
    includeDismissed: q.include_dismissed ?? false,
    includeClosed: q.include_closed ?? true,
  });
  return rows.map(presentAlarm);
}
