import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { alarms, records } from '../../db/schema-shipments';
import { recordAudit, SYSTEM_ACTOR } from '../../kernel/audit';
import { publishAlarmsRaised, publishWebhookEvent, type JobPublisher } from '../../jobs/catalogue';

/**
 * The no-data alarm (issue 14 item 4; docs/decisions/no-data-alarm.md): a
 * running rt or nanotag record that has sent nothing for longer than its
 * transmit interval (else its measurement interval) times the organization's
 * `no_data_factor` (default 3) raises an alarm of kind `no_data`, once per
 * silence; it closes (cause DATA_RESUMED) when data arrives again
 * (`lifecycle.ts`, in the upload's recomputation). It counts for the record's
 * status like any open alarm, and is acknowledged and dismissed like one.
 *
 * The alarm's fields: `first_point_idx` = `last_point_idx` = the index of the
 * first point not received (the series' length when it fell silent: a second
 * silence after new data has another index, so the open-alarm key
 * `alarms_open_key` keeps each silence to one alarm); `start_time` the last
 * data (records.temps_last_updated, else the record's creation), `end_time`
 * null, `duration` the silence in seconds when raised; no temperatures.
 */

/** The default factor (organization_settings.no_data_factor). */
export const DEFAULT_NO_DATA_FACTOR = 3;

/** A running rt or nanotag record that fell silent (read by {@link silentRecords}). */
interface SilentRecord {
  id: number;
  organizationId: string;
  tagId: number;
  tagSerialNumber: string;
  seriesLength: number;
  lastData: Date;
  /** Seconds: the transmit interval, else the measurement interval. */
  expectedInterval: number;
}

/**
 * The silent records of every organization, in one query over the running rt
 * and nanotag records (the partial index `records_live_idx`), with no open
 * no_data alarm.
 */
async function silentRecords(db: Db, now: Date): Promise<SilentRecord[]> {
  const rows = await db.execute<{
    id: string | number;
    organization_id: string;
    tag_id: string | number;
    tag_serial_number: string;
    series_length: number;
    last_data: string | Date;
    expected_interval: number;
  }>(sql`
    SELECT r.id, r.organization_id, r.tag_id, r.tag_serial_number, r.series_length,
           coalesce(r.temps_last_updated, r.created) AS last_data,
           coalesce(r.transmit_interval, r.measurement_interval) AS expected_interval
      FROM records r
      LEFT JOIN organization_settings s ON s.organization_id = r.organization_id
     WHERE r.active AND r.stop_time IS NULL AND r.tag_type IN ('XT1_RT', 'NanoTag')
       AND r.start_time_seconds IS NOT NULL
       AND coalesce(r.temps_last_updated, r.created)
           < ${now.toISOString()}::timestamptz - make_interval(secs =>
               coalesce(r.transmit_interval, r.measurement_interval)
               * coalesce(s.no_data_factor, ${DEFAULT_NO_DATA_FACTOR}))
       AND NOT EXISTS (SELECT 1 FROM alarms a
                        WHERE a.record_id = r.id AND a.organization_id = r.organization_id
                          AND a.kind = 'no_data' AND a.state = 'OPEN')
     ORDER BY r.id`);
  return rows.rows.map((r) => ({
    id: Number(r.id),
    organizationId: r.organization_id,
    tagId: Number(r.tag_id),
    tagSerialNumber: r.tag_serial_number,
    seriesLength: r.series_length,
    lastData: new Date(r.last_data),
    expectedInterval: Number(r.expected_interval),
  }));
}

/**
 * Raise the no-data alarm of one silent record, in its own transaction with
 * the record locked: the silence is checked again (an upload may have just
 * ended it), the alarm inserted unless one is open (the open-alarm key), the
 * record's status set to Alarm, the raise audited (actor System) and
 * announced (alarm.raised: the bell and the e-mails; webhooks alarm.raised
 * and alarm.no_data). Answers the alarm's id, or null when nothing was raised.
 */
async function raiseOne(
  db: Db,
  jobs: JobPublisher | null,
  silent: SilentRecord,
  now: Date,
): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ tempsLastUpdated: records.tempsLastUpdated, seriesLength: records.seriesLength })
      .from(records)
      .where(and(eq(records.id, silent.id), eq(records.organizationId, silent.organizationId)))
      .for('update');
    if (!locked || locked.seriesLength !== silent.seriesLength) return null;
    if ((locked.tempsLastUpdated?.getTime() ?? 0) > silent.lastData.getTime()) return null;
    const inserted = await tx
      .insert(alarms)
      .values({
        organizationId: silent.organizationId,
        recordId: silent.id,
        tagId: silent.tagId,
        tagSerialNumber: silent.tagSerialNumber,
        kind: 'no_data',
        aboveOrBelow: 'BELOW',
        firstPointIdx: silent.seriesLength,
        lastPointIdx: silent.seriesLength,
        degreeMinutes: 0,
        startTime: silent.lastData,
        endTime: null,
        duration: Math.round((now.getTime() - silent.lastData.getTime()) / 1000),
        numberOfPoints: 0,
        expectedInterval: silent.expectedInterval,
        created: now,
      })
      .onConflictDoNothing()
      .returning({ id: alarms.id });
    const id = inserted[0] ? Number(inserted[0].id) : null;
    if (id === null) return null;
    await tx
      .update(records)
      .set({ status: 'Alarm', computedStatus: 'Alarm', lastModified: now })
      .where(and(eq(records.id, silent.id), eq(records.organizationId, silent.organizationId)));
    await recordAudit(tx, { organizationId: silent.organizationId, actor: SYSTEM_ACTOR }, [
      {
        entityType: 'alarm',
        recordId: silent.id,
        field: 'state',
        action: 'alarm.raise',
        entityId: id,
        newValue: 'OPEN',
        reason: 'No data: nothing received since ' + silent.lastData.toISOString(),
      },
    ]);
    if (jobs) {
      const event = { organizationId: silent.organizationId, recordId: silent.id, alarmIds: [id] };
      await publishAlarmsRaised(jobs, tx, event);
      await publishWebhookEvent(jobs, tx, {
        ...event,
        event: 'alarm.no_data',
        occurredAt: now.toISOString(),
      });
    }
    return id;
  });
}

/**
 * The no-data job (`alarm.no-data`, every minute): raises the alarm of each
 * running rt or nanotag record that fell silent. Answers the alarms raised.
 */
export async function raiseNoDataAlarms(
  db: Db,
  jobs: JobPublisher | null,
  now: Date = new Date(),
): Promise<number[]> {
  const raised: number[] = [];
  for (const silent of await silentRecords(db, now)) {
    const id = await raiseOne(db, jobs, silent, now);
    if (id !== null) raised.push(id);
  }
  return raised;
}
