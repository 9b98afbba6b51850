import type pg from 'pg';

/**
 * What an operator checks a restore by: how many records, stored temperature
 * points, alarms, signatures and audit entries the database holds.
 *
 * - points: the values the series store holds (`record_series_chunks`, see
 *   kernel/series-store.ts), gaps (NULL) not counted. `array_remove` and
 *   `cardinality` run inside PostgreSQL, one row per chunk of 1024 points.
 * - signatures: both kinds of electronic signature, the alarm signatures
 *   (acknowledge / close) and the signed release decisions (record_dispositions).
 */
export interface Counts {
  records: number;
  points: number;
  alarms: number;
  alarmSignatures: number;
  releaseDecisions: number;
  auditEntries: number;
}

export const COUNT_LABELS: Record<keyof Counts, string> = {
  records: 'records',
  points: 'stored points',
  alarms: 'alarms',
  alarmSignatures: 'alarm signatures',
  releaseDecisions: 'release decisions (signed)',
  auditEntries: 'audit entries',
};

/**
 * One statement, so every count comes from the same snapshot (READ COMMITTED
 * takes one snapshot per statement): the figures describe one instant.
 */
const COUNTS_SQL = `
  SELECT (SELECT count(*) FROM records)::bigint AS records,
         (SELECT coalesce(sum(cardinality(array_remove(temps, NULL))), 0)
            FROM record_series_chunks)::bigint AS points,
         (SELECT count(*) FROM alarms)::bigint AS alarms,
         (SELECT count(*) FROM alarm_signatures)::bigint AS alarm_signatures,
         (SELECT count(*) FROM record_dispositions)::bigint AS release_decisions,
         (SELECT count(*) FROM audit_events)::bigint AS audit_entries`;

/** A client or a pool: anything that runs a query. */
type Queryable = Pick<pg.ClientBase, 'query'>;

export async function readCounts(db: Queryable): Promise<Counts> {
  const { rows } = await db.query<Record<string, string>>(COUNTS_SQL);
  const row = rows[0]!;
  return {
    records: Number(row.records),
    points: Number(row.points),
    alarms: Number(row.alarms),
    alarmSignatures: Number(row.alarm_signatures),
    releaseDecisions: Number(row.release_decisions),
    auditEntries: Number(row.audit_entries),
  };
}
