/**
 * The evidence module's entry (issue 37): the evidence chain's anchors and its
 * verification (docs/decisions/evidence-chain.md).
 */
export { evidenceRoutes } from './routes';
export { anchorAll, anchorOrganization } from './anchors';
export { signingKeyFrom } from './signing-key';
export { evidenceStamp, type EvidenceStamp } from './stamp';
export { verifyEvidence } from './verify';
