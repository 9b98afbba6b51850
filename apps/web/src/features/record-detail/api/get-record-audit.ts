import { auditList, type TAuditEvent } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApiWithTotal } from '../../../lib/api-client';
import { recordDetailKeys } from './query-keys';

/** The record page shows the newest entries of the record's audit trail; the CSV holds them all. */
export const RECORD_AUDIT_PAGE_SIZE = 100;

export interface RecordAudit {
  entries: TAuditEvent[];
  total: number;
}

/** GET /api/audit/?record_id=: the record's audit trail, newest first, and how many entries it holds. */
export async function getRecordAudit(recordId: string, signal?: AbortSignal): Promise<RecordAudit> {
  const { data, totalCount } = await callApiWithTotal(auditList, {
    query: { record_id: recordId, page_size: RECORD_AUDIT_PAGE_SIZE },
    signal,
  });
  return { entries: data, total: totalCount ?? data.length };
}

export function recordAuditQueryOptions(recordId: string) {
  return queryOptions({
    queryKey: recordDetailKeys.audit(recordId),
    queryFn: ({ signal }) => getRecordAudit(recordId, signal),
  });
}

export function useRecordAudit(recordId: string) {
  return useQuery(recordAuditQueryOptions(recordId));
}

/** The CSV export of the record's audit trail (a download the browser makes with the session cookie). */
export const recordAuditCsvUrl = (recordId: string) =>
  `/api/audit/csv/?record_id=${encodeURIComponent(recordId)}`;
