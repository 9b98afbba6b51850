import {
  authPrivacyPolicyPost,
  authTosAgreement,
  authTosPost,
  type TTermsOfService,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import type { termsOfService } from '../../db/schema';
import { AppError, notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { registerCall } from '../../http/register-call';
import type { Principal } from '../../kernel/principal';
import { agreeToTerms, findTermsById, publishPrivacyPolicy, publishTerms } from './repository';

const presentTerms = (t: typeof termsOfService.$inferSelect): TTermsOfService => ({
  id: t.id,
  active: t.active,
  content: t.content,
  version: t.version,
});

function requireServerAdmin(principal: Principal): void {
  if (!principal.user.isServerAdmin) {
    throw new AppError('FORBIDDEN', 'Only a server administrator may publish this.');
  }
}

/** Publishing terms and privacy policy (server administrators) and agreeing to the terms (issue 5). */
export async function legalPublishRoutes(app: FastifyInstance): Promise<void> {
  registerCall(app, authTosPost, async ({ body, requirePrincipal }) => {
    requireServerAdmin(requirePrincipal());
    return presentTerms(await publishTerms(app.db, body.content));
  });

  registerCall(app, authPrivacyPolicyPost, async ({ body, requirePrincipal }) => {
    requireServerAdmin(requirePrincipal());
    const policy = await publishPrivacyPolicy(app.db, body.content);
    return { content: policy.content };
  });

  registerCall(app, authTosAgreement, async ({ body, requirePrincipal }) => {
    const principal = requirePrincipal();
    const terms = isUuid(body.id) ? await findTermsById(app.db, body.id) : undefined;
    if (!terms) throw notFound('Terms of service');
    if (!terms.active) {
      throw new AppError(
        'VALIDATION_ERROR',
        'These terms of service are no longer in force; agree to the current version.',
        { id: 'Not the active terms of service' },
      );
    }
    await agreeToTerms(app.db, principal.user.id, terms.id);
    return presentTerms(terms);
  });
}
