import type { TRecordActionType, TTagType } from '@coldtrace/contract';
import type { SeriesValue } from '@coldtrace/domain';
import type { AppError } from '../../kernel/errors';
import type { RecordRow, scans } from '../../db/schema-shipments';
import type { RecordSettings, ShipmentFields, TagIdent } from './runs';
import type { UploadPrologue } from './upload';

/**
 * The one shape every device upload is decoded into (as Traccar's protocols
 * decode into one position). A device family's file (`xt1.ts`, `rt.ts`,
 * `nanotag.ts`) only reads and validates its body into a DecodedUpload; the
 * one ordered pipeline (`pipeline.ts`) does the rest for all of them: the tag
 * and its run, the writes, the recomputation and its events. A new device
 * family is a decoder and its test.
 *
 * The shape is data where it can be; the three functions in it (a start
 * computed from the tag's settings, an offset computed from the run, the
 * action row's own key) are pure: they read what the pipeline found and
 * validate the upload against it.
 */
export interface DecodedUpload {
  /** The upload call, device first (`xt1.SCAN`, `rt.packet`): metrics and the points set aside. */
  upload: string;
  /** Device times checked against the server's, and the upload key (see {@link UploadPrologue}). */
  prologue: UploadPrologue;
  /** The tag the upload names, and whether the upload may create it (type: tag_type, else this). */
  tag: { ident: TagIdent; defaultType: TTagType; create: boolean };
  /**
   * Where the stored upload under the key (a replay) is looked up. `tag`
   * (the default): before the transaction, and again once the tag is locked.
   * `tag-and-record`: in the round trip that locks the tag (nothing before
   * the transaction), and again in the one that locks the run's candidates
   * (a twin that committed while this one waited for the tag is seen there).
   */
  replay?: 'tag' | 'tag-and-record';
  /** Settings merged into the tag's configuration, and the pending command the upload confirms. */
  configure?: { settings: RecordSettings; confirms?: 'configure' | 'start' | 'stop' };
  /**
   * The record settings of the upload (a record it creates or starts gets
   * them): its own, or `configuration`, the tag's (after `configure`).
   */
  settings?: RecordSettings | 'configuration';
  /**
   * num_consecutive_excursions left out of `settings`: the tag's configured
   * value, else that of the organization's product of this name.
   */
  consecutiveFallback?: { product: string | null | undefined };
  /** How the record (the run) is found or created. */
  record: RecordRule;
  /** Refusals judged once the tag and the record are locked, before anything is written. */
  checks?: {
    /** The tag's calibration at the start (an expired one refuses or warns). */
    startAllowed?: boolean;
    /** Shipper and receiver must be travel locations of the organization. */
    travelLocations?: {
      shipper_name_address_id?: string | null | undefined;
      receiver_name_address_id?: string | null | undefined;
    };
  };
  /** What the upload changes on the record (one update, only of what differs). */
  patch?: RecordPatch;
  /**
   * Points merged by index at `offset` (up to the record's stop; the rest set
   * aside). With points, every write of the upload is queued and sent with
   * the recomputation's, in one statement (the unit of work).
   */
  points?: { offset: number | ((record: RecordRow) => number); temps: readonly SeriesValue[] };
  /** A position of the upload: a location sample when it is known (only with `points`). */
  location?: {
    latitude: number | undefined;
    longitude: number | undefined;
    /** Its time; absent: the upload's timestamp. */
    at?: Date;
    frameId?: string;
    /**
     * The temperature kept with it: the last point the record kept
     * (`last-kept`), or the upload's last point, whose time is the
     * position's (`last-sent`: none when it was set aside).
     */
    temperature: 'last-kept' | 'last-sent';
  };
  /** The scan or action row the upload writes; absent: none. */
  row?: DecodedScan | DecodedAction;
  /** false: the record is not recomputed even when patched (nothing derived changes). */
  recompute?: false;
}

/** How the record an upload belongs to is found. */
export type RecordRule =
  /**
   * The run: by record id, by start (found, a pending one started, or created
   * from the settings, ending the tag's earlier runs), else the active record
   * (or the latest, `orLatest`), else a new pending record (see `resolveRecord`).
   */
  | {
      by: 'run';
      recordId?: string | undefined;
      /** The run's start; a function: computed from the upload's settings (and validated). */
      start?: number | null | ((settings: RecordSettings) => number);
      create: boolean;
      startOverwrites?: boolean;
      orLatest?: boolean;
      missing?: () => AppError;
    }
  /**
   * The run covering `at` (seconds; absent: none), else (`orActive`) the
   * active record; none: 404. `notStarted`: the run must have started; when
   * it has not and the tag has a pending record, this error.
   */
  | { by: 'covering'; at: number | undefined; orActive: boolean; notStarted?: () => AppError }
  /** The tag's active (or latest) record; none: 404, or with `orNone` a reply without a record. */
  | { by: 'active' | 'latest'; orNone: boolean };

/** The changes of a record an upload brings, in this order (a later one wins a field). */
export interface RecordPatch {
  /** The upload's settings fill the record's empty ones. */
  fill?: boolean;
  /** A record not started takes these settings whole, instead of `fill` (`settings`: the upload's). */
  pendingTakes?: 'settings' | 'configuration';
  /** Shipment details: `overwrite` sets every field sent, otherwise only empty ones are filled. */
  shipment?: { fields: ShipmentFields; overwrite: boolean };
  /**
   * A product chosen for a record whose tag has no configured
   * num_consecutive_excursions brings the product's (`consecutiveFallback`).
   */
  productConsecutive?: boolean;
  /**
   * Health reported at the upload's timestamp: `newer` applies it unless
   * the record's is more recent; `changed` only when it differs.
   */
  health?: { battery?: string | undefined; memory?: string | undefined; when: 'newer' | 'changed' };
  /** The record stops (at `at`, else the upload's timestamp; an earlier stop stays). */
  stop?: { at?: Date };
  transmitInterval?: number;
}

/**
 * The scan row of an upload (the tag's report): what the tag reported,
 * written as it came; its summary is of the points it carried (its own
 * thresholds: `reported`).
 */
export interface DecodedScan {
  kind: 'scan';
  /** The alarm status the tag reported; absent: the record's alarm rules decide from the scan's points. */
  status: string | undefined;
  reported: Pick<
    typeof scans.$inferInsert,
    | 'latitude'
    | 'longitude'
    | 'tagStatus'
    | 'measurementInterval'
    | 'startDelay'
    | 'highThreshold'
    | 'lowThreshold'
    | 'primaryReference'
    | 'secondaryReference'
    | 'shippingReference'
    | 'mobileDeviceType'
    | 'mobileAppVersion'
    | 'startTimeSeconds'
    | 'stopTime'
  >;
}

/** The action row of an upload. */
export interface DecodedAction {
  kind: 'action';
  type: TRecordActionType;
  /** Its time; absent: the upload's timestamp. */
  at?: Date;
  /** Its key when the upload has none (given the server time); absent: a fresh one. */
  key?: (now: Date) => string;
  /**
   * An upload without a key that changed nothing writes no row (a repeat):
   * `record` — the record not created nor changed; `tag-or-record` — the tag
   * not changed either.
   */
  unlessUnchanged?: 'record' | 'tag-or-record';
  latitude?: number | undefined;
  longitude?: number | undefined;
  mobileDeviceType?: string | undefined;
  mobileAppVersion?: string | undefined;
}
