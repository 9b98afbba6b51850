import {
  aggregateBasis,
  alarmKey,
  appendTracked,
  changeableAlarmStarts,
  compareAlarms,
  emptyTracked,
  isTrackedAggregates,
  openAlarmsOf,
  rewindTo,
  sameBasis,
  type AlarmKeyFields,
  type DetectedAlarm,
  type TrackedAggregates,
  type SeriesValue,
  windowIndices,
} from '@coldtrace/domain';
import { isDeepStrictEqual } from 'node:util';
import type { RecordRow } from '../../db/schema-shipments';
import { assembleSeries, SERIES_CHUNK_SIZE } from '../../kernel/series-store';
import { seriesOf, thresholdsOf } from './record-series';
import type { EvaluatedTrip } from './reevaluate-trip';
import * as repo from './repository';
import type { UploadWrites } from './upload-writes';

/**
 * Step "series" of the recomputation (issue 13,
 * docs/decisions/incremental-recompute.md): the record's running aggregates
 * (`@coldtrace/domain`'s `appendPoints`), from which the summary and the
 * alarms follow.
 *
 * - An upload that only appends (every point it added lies at or after the
 *   end the aggregates were folded to) under the same basis (series times,
 *   alarm rules, evaluation window) folds only its new points: O(new points),
 *   and only the chunks it touched were read.
 * - Anything else is a full recompute over the whole series (the chunks not
 *   read yet are read then): a late packet filling a gap before the end, a
 *   threshold, product, interval or start edit, a trip window that moved, a
 *   record without aggregates yet (created, or stored before they existed).
 */

export interface EvaluatedSeries {
  /** The aggregates after this upload (with their checkpoints), to store. */
  state: TrackedAggregates;
  /** The alarms the evaluation found that may differ from the stored ones. */
  detected: DetectedAlarm[];
  /**
   * Which stored open alarms `detected` is reconciled with: every one (a full
   * recompute), or, for an append, those the new points can change (the run
   * open at the old end, the cumulative spans, anything from the old end on).
   * The others are final: they hold as stored.
   */
  inScope: (alarm: AlarmKeyFields) => boolean;
  /** Whether this was a full recompute. */
  full: boolean;
}

/** Values at indices `from`..`to - 1` of the chunks (missing: gaps). */
function sliceOf(
  chunks: ReadonlyMap<number, readonly SeriesValue[]>,
  from: number,
  to: number,
): SeriesValue[] {
  const out = new Array<SeriesValue>(Math.max(0, to - from));
  for (let i = from; i < to; i++) {
    const chunk = chunks.get(Math.floor(i / SERIES_CHUNK_SIZE));
    out[i - from] = chunk?.[i % SERIES_CHUNK_SIZE] ?? null;
  }
  return out;
}

const allAlarms = () => true;

/** Checkpoints at the chunk boundaries: the last two (a late point up to a chunk or two back). */
const CHECKPOINTS = { every: SERIES_CHUNK_SIZE, keep: 2 } as const;

/**
 * The record's aggregates after this upload (see the module comment);
 * `full` forces a full recompute. The aggregates' write is queued in
 * `writes` when they changed.
 */
export async function evaluateSeries(
  writes: UploadWrites,
  record: RecordRow,
  input: { trip: EvaluatedTrip; started: boolean; full?: boolean },
): Promise<EvaluatedSeries> {
  const times = seriesOf(record, []);
  const basis = aggregateBasis(
    times,
    thresholdsOf(record),
    windowIndices(times, input.trip, input.started),
  );
  const stored = writes.state.aggregates;
  const previous =
    input.full !== true && isTrackedAggregates(stored) && sameBasis(stored.current.basis, basis)
      ? stored
      : null;
  const added = writes.addedPoints;
  // Where to fold from: the end (an append), the newest checkpoint before a late point, or the start.
  let from: TrackedAggregates | null = null;
  if (previous !== null) {
    from =
      added === null || added.first >= previous.current.length
        ? previous
        : rewindTo(previous, added.first);
  }
  let result: EvaluatedSeries;
  if (from !== null) {
    const start = from.current.length;
    const end = Math.max(previous!.current.length, added === null ? 0 : added.last + 1);
    const chunks =
      from === previous
        ? writes.state.chunks
        : await writes.chunksFrom(Math.floor(start / SERIES_CHUNK_SIZE));
    const folded = appendTracked(from, sliceOf(chunks, start, end), start, CHECKPOINTS);
    const current = folded.tracked.current;
    const changeable = new Set(changeableAlarmStarts(from.current).map(alarmKey));
    result = {
      state: folded.tracked,
      detected: [...folded.closed, ...openAlarmsOf(current)].sort(compareAlarms),
      inScope: (alarm) => changeable.has(alarmKey(alarm)) || alarm.first_point_idx >= start,
      full: false,
    };
  } else {
    const temps = assembleSeries(await writes.wholeSeries());
    const folded = appendTracked(emptyTracked(basis), temps, 0, CHECKPOINTS);
    result = {
      state: folded.tracked,
      detected: [...folded.closed, ...openAlarmsOf(folded.tracked.current)].sort(compareAlarms),
      inScope: allAlarms,
      full: true,
    };
  }
  if (!isDeepStrictEqual(result.state, stored)) {
    writes.addDerived(repo.upsertAggregatesSql(record.organizationId, record.id, result.state));
  }
  return result;
}
