import { auditVerify, evidenceKey } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { signingKeyFrom } from './signing-key';
import { verifyEvidence } from './verify';

/**
 * GET /api/audit/verify/: the organization's evidence chain, walked
 * (administrators). GET /api/evidence/key/: the server's public key, which
 * anchors and dossiers are signed with (anyone).
 */
export async function evidenceRoutes(app: FastifyInstance): Promise<void> {
  const key = signingKeyFrom(app.config.secretKey);

  registerCall(app, auditVerify, async ({ organizationId }) =>
    verifyEvidence(app.db, organizationId(), { trustedKeys: [key.publicKey] }),
  );

  registerCall(app, evidenceKey, async () => ({
    algorithm: 'Ed25519' as const,
    public_key: key.publicKey,
    key_id: key.keyId,
  }));
}
