import { auditVerify, evidenceKey } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { organizationKeyFrom, signingKeyFrom, type SigningKey } from './signing-key';
import { verifyEvidence } from './verify';

/**
 * GET /api/audit/verify/: the organization's evidence chain, walked
 * (administrators). GET /api/evidence/key/: the server's public key, which
 * anchors are signed with, or an organization's, which its dossiers are
 * signed with (anyone).
 */
export async function evidenceRoutes(app: FastifyInstance): Promise<void> {
  const key = signingKeyFrom(app.config.secretKey);

  registerCall(app, auditVerify, async ({ organizationId }) =>
    verifyEvidence(app.db, organizationId(), { trustedKeys: [key.publicKey] }),
  );

  const published = (k: SigningKey) => ({
    algorithm: 'Ed25519' as const,
    public_key: k.publicKey,
    key_id: k.keyId,
  });
  registerCall(app, evidenceKey, async ({ query }) =>
    published(
      query.organization_id
        ? organizationKeyFrom(app.config.secretKey, query.organization_id)
        : key,
    ),
  );
}
