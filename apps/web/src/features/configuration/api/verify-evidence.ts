import { auditVerify, evidenceKey, type TEvidenceVerification } from '@coldtrace/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { configurationKeys } from './query-keys';

/** GET /api/audit/verify/: walks the organization's evidence chain (administrators). */
export function useVerifyEvidence() {
  return useMutation<TEvidenceVerification>({ mutationFn: () => callApi(auditVerify) });
}

/** GET /api/evidence/key/: the server's public signing key. */
export function useEvidenceKey() {
  return useQuery({
    queryKey: configurationKeys.evidenceKey,
    queryFn: ({ signal }) => callApi(evidenceKey, { signal }),
    staleTime: Infinity,
  });
}
