/**
 * The evidence module's entry (issue 37): the evidence chain's anchors and its
 * verification (docs/decisions/evidence-chain.md).
 */
export { anchorAll, anchorOrganization, lastAnchorNaming, type StoredAnchor } from './anchors';
export { organizationKeyFrom, signingKeyFrom, signText, type SigningKey } from './signing-key';
export { readChain, recordEvidenceRows, type EvidenceRow } from './verify';
export { evidenceStamp, type EvidenceStamp } from './stamp';
export { verifyEvidence } from './verify';
export type { ChainEntry } from './chain';
export type { AnchorPayload } from './anchors';
