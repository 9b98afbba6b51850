import { kpisLanes, type TKpiGroup } from '@coldtrace/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';

export interface KpiParams {
  from: string;
  to: string;
  group_by: TKpiGroup;
}

/** GET /api/kpis/lanes/: the period's lane or carrier KPIs and the excursion rate over time. */
export function useKpis(params: KpiParams) {
  return useQuery({
    queryKey: ['kpis', 'lanes', params] as const,
    queryFn: ({ signal }) => callApi(kpisLanes, { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The CSV export's address for the same parameters (a plain download link, cookie-authenticated GET). */
export function kpisCsvUrl(params: KpiParams): string {
  return `/api/kpis/lanes/csv/?${new URLSearchParams({ ...params }).toString()}`;
}
