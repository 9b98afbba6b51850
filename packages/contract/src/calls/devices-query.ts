import { z } from 'zod';
import { defineCall } from '../call';
import { ZExcursionAlarm } from '../entities/alarms';
import { ZDispositionFilter } from '../entities/disposition';
import { ZReviewStateFilter } from '../entities/review-state';
import {
  ZRecord,
  ZRecordAction,
  ZRecordReference,
  ZRecordStatistics,
  ZScan,
} from '../entities/records';
import { ZRecordLocations, ZRecordSeries, ZTripTemperatures } from '../entities/series';
import { ZTagExtended } from '../entities/tags';

/**
 * The read side of the shipment data (spec section 7, "xt1 devices" and
 * "Aggregates"): tags, records, actions, scans, statistics, alarms and the
 * aggregates of the record detail view. Every call works in the session's
 * organization; another organization's ids answer 404. Decisions (paging
 * base, filter fields and operators): docs/decisions/record-queries.md.
 *
 * Query strings are text, so the query schemas accept a number or boolean or
 * its text and hand the server the parsed value; a list parameter accepts a
 * comma-separated text, the parameter repeated, or both.
 */

/** Largest page a list call answers. */
export const MAX_PAGE_SIZE = 1000;
/** Default page size of the paged lists (the home list's, spec section 9). */
export const DEFAULT_PAGE_SIZE = 20;
/** Largest page number accepted (beyond it the offset is absurd). */
export const MAX_PAGE_NUMBER = 1_000_000;
/** Record ids one list call accepts (record_ids). */
export const MAX_RECORD_IDS = 1000;
/** Record ids one temperature aggregate call accepts (each brings its whole series). */
export const MAX_TEMPERATURE_RECORD_IDS = 50;
/** Longest filter text and search text accepted. */
export const MAX_FILTER_LENGTH = 10_000;
export const MAX_SEARCH_LENGTH = 500;

const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;

/** An integer parameter in [min, max]: a number, or its decimal text. */
export function zQueryInt(min: number, max: number) {
  return z
    .union([z.number(), z.string()], {
      error: (issue) =>
        issue.input === undefined ? 'required parameter is missing' : 'must be an integer',
    })
    .transform((value, ctx) => {
      const n = typeof value === 'number' ? value : INTEGER_TEXT.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(n)) {
        ctx.addIssue({ code: 'custom', message: 'must be an integer', input: value });
        return z.NEVER;
      }
      if (n < min || n > max) {
        ctx.addIssue({
          code: 'custom',
          message: `must be between ${min} and ${max}`,
          input: value,
        });
        return z.NEVER;
      }
      return n;
    });
}

const TRUE_TEXTS = new Set(['true', '1']);
const FALSE_TEXTS = new Set(['false', '0']);

/** A boolean parameter: true or false, or the text `true`, `false`, `1` or `0`. */
export function zQueryBool() {
  return z
    .union([z.boolean(), z.string()], {
      error: (issue) =>
        issue.input === undefined ? 'required parameter is missing' : 'must be true or false',
    })
    .transform((value, ctx) => {
      if (typeof value === 'boolean') return value;
      const text = value.trim().toLowerCase();
      if (TRUE_TEXTS.has(text)) return true;
      if (FALSE_TEXTS.has(text)) return false;
      ctx.addIssue({ code: 'custom', message: 'must be true or false', input: value });
      return z.NEVER;
    });
}

/**
 * A list of ids: comma-separated text and/or the parameter repeated. Entries
 * are trimmed, empty ones dropped, duplicates removed (first position kept);
 * at least one and at most `max` remain.
 */
export function zQueryIdList(max: number) {
  return z
    .union([z.array(z.string()), z.string()], {
      error: (issue) =>
        issue.input === undefined
          ? 'required parameter is missing'
          : 'must be a comma-separated list of ids',
    })
    .transform((value, ctx) => {
      const entries = (Array.isArray(value) ? value : [value])
        .flatMap((entry) => entry.split(','))
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
      const ids = [...new Set(entries)];
      if (ids.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'must name at least one id', input: value });
        return z.NEVER;
      }
      if (ids.length > max) {
        ctx.addIssue({
          code: 'custom',
          message: `names ${ids.length} ids; at most ${max} per call`,
          input: value,
        });
        return z.NEVER;
      }
      return ids;
    });
}

/** One text parameter (trimmed), at most `max` characters; empty is allowed. */
function zQueryText(max: number) {
  return z.string().trim().max(max);
}

/** `order_by`: field names, `-` in front for descending, comma-separated and/or repeated. */
const zOrderBy = z
  .union([z.array(z.string()), z.string()], {
    error: 'must be field names, comma-separated or repeated',
  })
  .transform((value) => (Array.isArray(value) ? value : [value]));

const ISO_DATE_OR_TIME =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 date (`2025-03-01`, a whole day in UTC) or date-time (`2025-03-01T08:00:00Z`). */
export function zQueryDate() {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined ? 'required parameter is missing' : 'must be an ISO 8601 date',
    })
    .trim()
    .refine(
      (text) => ISO_DATE_OR_TIME.test(text) && !Number.isNaN(Date.parse(text.slice(0, 10))),
      'must be an ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM])',
    );
}

const paging = {
  /** 1-based page number (page 1 is the first). */
  page_number: zQueryInt(1, MAX_PAGE_NUMBER)
    .optional()
    .meta({ description: '1-based page number (default 1)' }),
  page_size: zQueryInt(1, MAX_PAGE_SIZE)
    .optional()
    .meta({ description: `Rows per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` }),
};

const filterParam = () =>
  zQueryText(MAX_FILTER_LENGTH).optional().meta({
    description:
      'Table filter: `field__operator=value` items joined by `^` (and) or `|` (or), e.g. `primary_reference__contains=ACME^high_threshold__gte=8`',
  });
const orderByParam = () =>
  zOrderBy.optional().meta({
    description: 'Field names, `-` in front for descending; comma-separated or repeated',
  });
const recordIdsParam = (max: number) =>
  zQueryIdList(max).meta({
    description: `Record ids, comma-separated or repeated (at most ${max})`,
  });

const TOTAL_NOTE =
  'Paged: page_number is 1-based (default 1), page_size 1..1000 (default 20); ' +
  'the total number of matching rows is in the x-total-count header.';
const FILTER_NOTE =
  'filter: the table filter grammar (`field__operator=value`, joined by `^` for and or `|` ' +
  'for or) over the fields listed in docs/decisions/record-queries.md; order_by: field names, ' +
  '`-` for descending (default -last_action_taken).';

const TAG = 'xt1';
const XT1 = '/api/devices/xt1/';

export const xt1Sensors = defineCall({
  operationId: 'xt1Sensors',
  method: 'GET',
  path: XT1,
  summary: "All sensors: the organization's tags in the extended view",
  tag: TAG,
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  reply: z.array(ZTagExtended),
});

export const xt1Details = defineCall({
  operationId: 'xt1Details',
  method: 'GET',
  path: `${XT1}details/`,
  summary: "All Devices: the organization's tags in the extended view, filtered and paged",
  description: `${FILTER_NOTE} ${TOTAL_NOTE}`,
  tag: TAG,
  auth: 'session',
  scope: 'organization',
  permission: 'sysAdminUser',
  query: z.object({
    filter: filterParam(),
    order_by: orderByParam(),
    ...paging,
  }),
  reply: z.array(ZTagExtended),
});

export const xt1Records = defineCall({
  operationId: 'xt1Records',
  method: 'GET',
  path: `${XT1}records/`,
  summary: 'Records, filtered, searched and paged',
  description:
    `${FILTER_NOTE} search: case-insensitive contains, ORed per whitespace-separated word, ` +
    'over id, tag serial number, references, program name, shipper and receiver names, ' +
    'carrier, product designation and PO number. latest=true keeps the latest record of ' +
    `each tag. ${TOTAL_NOTE}`,
  tag: TAG,
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({
    filter: filterParam(),
    search: zQueryText(MAX_SEARCH_LENGTH)
      .optional()
      .meta({ description: 'Search box terms, whitespace-separated (at most 20 words)' }),
    latest: zQueryBool()
      .optional()
      .meta({ description: 'true: only the latest record of each tag' }),
    disposition: ZDispositionFilter.optional().meta({
      description:
        'Release decision: RELEASED, QUARANTINED or REJECTED (the current decision), NONE (no decision yet)',
    }),
    review_state: ZReviewStateFilter.optional().meta({
      description:
        'Review state: AWAITING_ACKNOWLEDGEMENT, AWAITING_DECISION, RELEASED, QUARANTINED, REJECTED, or NEEDS_REVIEW (awaiting acknowledgement or decision)',
    }),
    order_by: orderByParam(),
    ...paging,
  }),
  reply: z.array(ZRecord),
});

export const xt1Record = defineCall({
  operationId: 'xt1Record',
  method: 'GET',
  path: `${XT1}record/`,
  summary: 'One record',
  tag: TAG,
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({ record_id: z.string().trim().min(1).max(40) }),
  reply: ZRecord,
});

export const xt1RecordIds = defineCall({
  operationId: 'xt1RecordIds',
  method: 'GET',
  path: `${XT1}record-ids/`,
  summary: "References of the organization's records (newest first)",
  tag: TAG,
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  reply: z.array(ZRecordReference),
});

export const xt1LatestRecord = defineCall({
  operationId: 'xt1LatestRecord',
  method: 'GET',
  path: `${XT1}latest-record/`,
  summary: 'The latest record of a tag, by tag id or serial number (404 when none)',
  tag: TAG,
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({ tag_id_or_serial_number: z.string().trim().min(1).max(200) }),
  reply: ZRecord,
});

export const xt1RecordActions = defineCall({
  operationId: 'xt1RecordActions',
  method: 'GET',
  path: `${XT1}records/actions/`,
  summary: 'Actions of records, oldest first',
  tag: TAG,
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({ record_ids: recordIdsParam(MAX_RECORD_IDS) }),
  reply: z.array(ZRecordAction),
});

export const xt1RecordScans = defineCall({
  operationId: 'xt1RecordScans',
  method: 'GET',
  path: `${XT1}records/scans/`,
  summary: 'Scans of records, newest first (latest=true: the latest scan of each record)',
  tag: TAG,
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({
    record_ids: recordIdsParam(MAX_RECORD_IDS),
    latest: zQueryBool()
      .optional()
      .meta({ description: 'true: only the latest scan of each record' }),
  }),
  reply: z.array(ZScan),
});

export const xt1StatisticsSummary = defineCall({
  operationId: 'xt1StatisticsSummary',
  method: 'GET',
  path: `${XT1}records/statistics/summary/`,
  summary: "Counts of the organization's records, scans and tags",
  tag: TAG,
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  reply: ZRecordStatistics,
});

export const xt1StatisticsFiltered = defineCall({
  operationId: 'xt1StatisticsFiltered',
  method: 'GET',
  path: `${XT1}records/statistics/filtered/`,
  summary: 'The same counts over the records created from start_date to end_date (inclusive)',
  description:
    'A date (YYYY-MM-DD) is a whole day in UTC, so end_date includes its day; a date-time ' +
    'without an offset is UTC. start_date must not be after end_date. The counts are by ' +
    'shipment time (the record creation), except num_alarm_started_records: records with an ' +
    'alarm (not dismissed) that started in the period, whenever the record was created.',
  tag: TAG,
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({ start_date: zQueryDate(), end_date: zQueryDate() }),
  reply: ZRecordStatistics,
});

export const xt1Alarms = defineCall({
  operationId: 'xt1Alarms',
  method: 'GET',
  path: `${XT1}alarms/`,
  summary: 'Excursion alarms, open and closed (acknowledged and dismissed ones only when asked)',
  tag: TAG,
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({
    include_acknowledged: zQueryBool()
      .optional()
      .meta({ description: 'Also acknowledged alarms (default false)' }),
    include_dismissed: zQueryBool()
      .optional()
      .meta({ description: 'Also dismissed alarms (default false)' }),
    include_closed: zQueryBool().optional().meta({
      description:
        'Also closed alarms (default true): an alarm that stopped holding is kept, closed, with its cause and reason',
    }),
    record_id: z.string().trim().min(1).max(40).optional(),
  }),
  reply: z.array(ZExcursionAlarm),
});

export const xt1ScansList = defineCall({
  operationId: 'xt1ScansList',
  method: 'GET',
  path: `${XT1}scans/`,
  summary: "The organization's scans, newest first, paged",
  description: TOTAL_NOTE,
  tag: TAG,
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({ ...paging }),
  reply: z.array(ZScan),
});

export const aggregateLocations = defineCall({
  operationId: 'aggregateLocations',
  method: 'GET',
  path: '/api/devices/aggregate/locations/',
  summary: 'Known positions of records (never the -91/-181 sentinels), oldest first per record',
  description:
    'Paged over the records: order_by sorts them by record fields (default: the order of ' +
    `record_ids). ${TOTAL_NOTE}`,
  tag: 'aggregate',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({
    record_ids: recordIdsParam(MAX_RECORD_IDS),
    order_by: orderByParam(),
    ...paging,
  }),
  reply: z.array(ZRecordLocations),
});

export const aggregateRecordTemperatures = defineCall({
  operationId: 'aggregateRecordTemperatures',
  method: 'GET',
  path: '/api/devices/aggregate/record-temperatures/',
  summary: 'Temperature series of records with thresholds and trip times (gaps left out)',
  description: `At most ${MAX_TEMPERATURE_RECORD_IDS} record ids per call.`,
  tag: 'aggregate',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({ record_ids: recordIdsParam(MAX_TEMPERATURE_RECORD_IDS) }),
  reply: z.array(ZTripTemperatures),
});

/** Pixel columns a series reply may be reduced to. */
export const MIN_SERIES_WIDTH = 100;
export const MAX_SERIES_WIDTH = 4000;

export const aggregateRecordSeries = defineCall({
  operationId: 'aggregateRecordSeries',
  method: 'GET',
  path: '/api/devices/aggregate/record-series/',
  summary: "One record's temperature series, compact, for the chart (reduced to width when long)",
  description:
    'The timing once (first_point_time, interval_seconds) and the temperatures as a number ' +
    'array (°C, null for a gap). width: the pixel columns drawn; a series longer than twice ' +
    'that is reduced to the lowest and highest value per column (a gap kept where a column has ' +
    'one) with every point beyond a threshold kept exactly, each at the index `indices` gives. ' +
    'from and to (ISO 8601, both optional): only the points in that window (a zoom), with one ' +
    'neighbour either side; at full resolution when the window holds at most 2 x width points. ' +
    'Without width: every point. Decisions: docs/decisions/compact-series.md.',
  tag: 'aggregate',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: z.object({
    record_id: z.string().trim().min(1).max(40),
    width: zQueryInt(MIN_SERIES_WIDTH, MAX_SERIES_WIDTH)
      .optional()
      .meta({
        description: `Pixel columns of the chart, ${MIN_SERIES_WIDTH} to ${MAX_SERIES_WIDTH} (default: no reduction)`,
      }),
    from: zQueryDate().optional().meta({
      description: 'Start of the window (ISO 8601 date or date-time; default: the first point)',
    }),
    to: zQueryDate().optional().meta({
      description: 'End of the window (ISO 8601; a date is its whole day; default: the last point)',
    }),
  }),
  reply: ZRecordSeries,
});

export const devicesQueryCalls = [
  xt1Sensors,
  xt1Details,
  xt1Records,
  xt1Record,
  xt1RecordIds,
  xt1LatestRecord,
  xt1RecordActions,
  xt1RecordScans,
  xt1StatisticsSummary,
  xt1StatisticsFiltered,
  xt1Alarms,
  xt1ScansList,
  aggregateLocations,
  aggregateRecordTemperatures,
  aggregateRecordSeries,
] as const;
