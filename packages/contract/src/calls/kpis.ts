import { z } from 'zod';
import { defineCall, DOWNLOAD_MEDIA_TYPES, fileReply } from '../call';
import { zQueryDate } from './devices-query';

/**
 * Lane and carrier KPIs (issue 15 item 4, docs/decisions/kpis.md): per lane
 * (origin to destination) or per carrier, over the shipments that started in
 * a period: shipments, excursion rate, degree-minutes, mean time to
 * acknowledge, the shares released and rejected, and the excursion rate over
 * time. An addition to the spec.
 */

/** Longest period one call covers. */
export const KPI_MAX_DAYS = 731;
/** Period when `from` and `to` are omitted: the last 90 days. */
export const KPI_DEFAULT_DAYS = 90;
/** Periods up to this many days are charted per week, longer ones per month. */
export const KPI_WEEKLY_MAX_DAYS = 183;

export const KPI_GROUPS = ['lane', 'carrier'] as const;
export const ZKpiGroup = z.enum(KPI_GROUPS, { error: "must be 'lane' or 'carrier'" });
export type TKpiGroup = z.infer<typeof ZKpiGroup>;

export const ZKpiQuery = z.object({
  from: zQueryDate()
    .optional()
    .meta({
      description: `First day (YYYY-MM-DD, UTC) of the period; default ${KPI_DEFAULT_DAYS} days before to`,
    }),
  to: zQueryDate()
    .optional()
    .meta({ description: 'Last day (YYYY-MM-DD, UTC, included) of the period; default today' }),
  group_by: ZKpiGroup.optional().meta({ description: "'lane' (default) or 'carrier'" }),
  product: z
    .string()
    .trim()
    .max(200, 'must be at most 200 characters')
    .optional()
    .meta({ description: 'Only shipments of this product designation (exact, ignoring case)' }),
});

const ZLocationRef = z.object({ id: z.string(), name: z.string() }).nullable();

export const ZKpiRow = z.object({
  /** Lane rows: the origin and destination (null: the record names none). */
  origin: ZLocationRef.optional(),
  destination: ZLocationRef.optional(),
  /** Carrier rows: the carrier as typed on the records ('' when none). */
  carrier: z.string().optional(),
  shipments: z.number().int(),
  shipments_with_excursion: z.number().int(),
  excursion_rate: z.number().describe('shipments_with_excursion / shipments, 0 to 1'),
  degree_minutes: z
    .number()
    .describe('Sum of the degree-minutes of every alarm of the shipments (at most 4 decimals)'),
  mean_minutes_to_acknowledge: z
    .number()
    .nullable()
    .describe(
      'Mean minutes from an alarm being raised to its acknowledgement; null when none was acknowledged',
    ),
  released_share: z
    .number()
    .nullable()
    .describe(
      'Share of the shipments whose latest release decision is RELEASED; null when decisions are not available',
    ),
  rejected_share: z.number().nullable().describe('Likewise for REJECTED'),
});
export type TKpiRow = z.infer<typeof ZKpiRow>;

export const ZKpiPoint = z.object({
  period_start: z.string().describe('First day (UTC) of the week (Monday) or month'),
  shipments: z.number().int(),
  shipments_with_excursion: z.number().int(),
  excursion_rate: z.number(),
});

export const ZKpiReport = z.object({
  from: z.string().describe('First day of the period (YYYY-MM-DD)'),
  to: z.string().describe('Last day of the period, included (YYYY-MM-DD)'),
  group_by: ZKpiGroup,
  interval: z.enum(['week', 'month']),
  rows: z.array(ZKpiRow),
  totals: ZKpiRow.omit({ origin: true, destination: true, carrier: true }),
  series: z.array(ZKpiPoint),
});
export type TKpiReport = z.infer<typeof ZKpiReport>;

const KPI_DESCRIPTION =
  'A shipment belongs to the period by its start time. A shipment with an excursion has at ' +
  'least one alarm, closed or not. 400 naming the field for a bad date, a period longer than ' +
  `${KPI_MAX_DAYS} days, to before from, or an unknown group_by.`;

export const kpisLanes = defineCall({
  operationId: 'kpisLanes',
  method: 'GET',
  path: '/api/kpis/lanes/',
  summary: 'Lane or carrier KPIs over a period, with the excursion rate per week or month',
  description: KPI_DESCRIPTION,
  tag: 'kpis',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: ZKpiQuery,
  reply: ZKpiReport,
});

export const kpisLanesCsv = defineCall({
  operationId: 'kpisLanesCsv',
  method: 'GET',
  path: '/api/kpis/lanes/csv/',
  summary: 'The same KPIs as a CSV file',
  description: `${KPI_DESCRIPTION} Answers text/csv (Content-Disposition attachment).`,
  tag: 'kpis',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: 'sysDataRead',
  query: ZKpiQuery,
  reply: fileReply(DOWNLOAD_MEDIA_TYPES.csv, 'The CSV file (UTF-8 with a byte order mark)'),
  download: DOWNLOAD_MEDIA_TYPES.csv,
});

export const kpisCalls = [kpisLanes, kpisLanesCsv] as const;
