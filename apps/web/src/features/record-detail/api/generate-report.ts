import { REPORT_CREATE_CALLS, type TFileReference, type TReportKind } from '@coldtrace/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';

/** POST /api/devices/xt1/reports/{kind}/: the server generates the file (a job) and answers where to fetch it. */
export function generateReport(kind: TReportKind, recordId: string): Promise<TFileReference> {
  return callApi(REPORT_CREATE_CALLS[kind], { body: { record_id: recordId } });
}

/** GET the reply's localUrl: the file, or the server's error (409 while it is not ready yet). */
export async function fetchReportFile(localUrl: string): Promise<Blob> {
  const response = await fetch(localUrl, { credentials: 'same-origin' });
  if (!response.ok) {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    throw ApiError.fromReply(response.status, response.statusText, body);
  }
  return response.blob();
}

/** Hands a file to the browser to save as `fileName`. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export interface DownloadReportInput {
  kind: TReportKind;
  recordId: string;
}

/** Generates, fetches and saves a report (the reply's localUrl and fileName). */
export async function downloadReport({ kind, recordId }: DownloadReportInput): Promise<string> {
  const reference = await generateReport(kind, recordId);
  if (!reference.localUrl) throw new Error('The server did not say where the report is.');
  const fileName = reference.fileName ?? `record-${recordId}.${kind}`;
  saveFile(await fetchReportFile(reference.localUrl), fileName);
  return fileName;
}

export function useDownloadReport() {
  return useMutation({ mutationFn: downloadReport });
}
