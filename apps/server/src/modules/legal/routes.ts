import { authPrivacyPolicyGet, authTosGet } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../kernel/errors';
import { registerCall } from '../../http/register-call';
import { legalPublishRoutes } from './publish-routes';
import { findActivePrivacyPolicy, findActiveTerms } from './repository';

/** Terms of service and privacy policy; publishing and agreeing are in `publish-routes.ts`. */
export async function legalRoutes(app: FastifyInstance): Promise<void> {
  registerCall(app, authTosGet, async () => {
    const terms = await findActiveTerms(app.db);
    if (!terms) throw notFound('Terms of service');
    return { id: terms.id, active: terms.active, content: terms.content, version: terms.version };
  });

  registerCall(app, authPrivacyPolicyGet, async () => {
    const policy = await findActivePrivacyPolicy(app.db);
    if (!policy) throw notFound('Privacy policy');
    return { content: policy.content };
  });

  await app.register(legalPublishRoutes);
}
