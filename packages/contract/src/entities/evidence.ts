import { z } from 'zod';

/**
 * The verification of an organization's evidence chain (issue 37 item 1;
 * docs/decisions/evidence-chain.md): every chain walked entry by entry, every
 * evidence row compared with its last chained version.
 */

export const EVIDENCE_PROBLEM_KINDS = [
  'entry_edited',
  'entry_missing',
  'version_content_edited',
  'row_edited',
  'row_removed',
  'row_untracked',
  'chain_unopened',
  'anchor_invalid',
  'anchor_unknown_key',
  'anchor_head_missing',
] as const;

export const ZEvidenceProblem = z
  .object({
    kind: z.enum(EVIDENCE_PROBLEM_KINDS).meta({
      description:
        'entry_edited: an entry does not hash to what follows it; entry_missing: a number of the ' +
        "chain is missing (an entry removed or the chain's order changed); version_content_edited: " +
        'a kept version does not match its digest; row_edited: the row differs from its last ' +
        'chained version; row_removed: a row the chain says exists is gone; row_untracked: a row ' +
        'no chain knows; chain_unopened: a record chain its organization never opened; ' +
        'anchor_invalid: an anchor whose signature or link to the anchor before fails; ' +
        "anchor_unknown_key: an anchor signed with a key that is not this server's; " +
        'anchor_head_missing: a chain no longer holds the entry an anchor signed (entries ' +
        'removed from its end, or the chain rewritten)',
    }),
    chain: z.string().nullable().meta({ description: 'org:<id> or record:<id>' }),
    seq: z.number().int().nullable().meta({ description: 'The entry number in the chain' }),
    source: z.string().nullable().meta({ description: 'The table of the row concerned' }),
    row_key: z.string().nullable().meta({ description: "The row's key in its table" }),
    message: z.string(),
  })
  .meta({ id: 'EvidenceProblem' });

export const ZEvidenceVerification = z
  .object({
    verified: z.boolean().meta({ description: 'True when no problem was found' }),
    checked_at: z.string().meta({ description: 'When the verification ran (ISO 8601, UTC)' }),
    chains: z.number().int().meta({ description: 'Chains walked' }),
    entries: z.number().int().meta({ description: 'Chain entries checked' }),
    rows: z.number().int().meta({ description: 'Evidence rows compared with the chain' }),
    anchors: z.number().int().meta({ description: 'Signed anchors checked' }),
    last_anchor: z
      .object({
        anchored_at: z.string().meta({ description: 'When it was signed (ISO 8601, UTC)' }),
        payload_sha256: z.string().meta({
          description: "SHA-256 of the anchor's signed text: quote it outside the server",
        }),
      })
      .nullable()
      .meta({ description: "The organization's latest anchor, if any" }),
    first_break: ZEvidenceProblem.nullable().meta({
      description: 'The first problem found (the first broken link of the first broken chain)',
    }),
    problems: z.array(ZEvidenceProblem).meta({ description: 'Every problem found, at most 100' }),
  })
  .meta({ id: 'EvidenceVerification' });

export type TEvidenceProblem = z.infer<typeof ZEvidenceProblem>;
export type TEvidenceVerification = z.infer<typeof ZEvidenceVerification>;

export const ZEvidenceKey = z
  .object({
    algorithm: z.literal('Ed25519'),
    public_key: z.string().meta({ description: 'SubjectPublicKeyInfo DER, base64' }),
    key_id: z
      .string()
      .meta({ description: "The first 16 hex digits of the key's SHA-256: a short name for it" }),
  })
  .meta({ id: 'EvidenceKey' });

export type TEvidenceKey = z.infer<typeof ZEvidenceKey>;
