import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * The requirement catalogue (validation/requirements/*.json, docs/validation.md):
 * one id per product spec section (SPEC-), domain rule (RULE-) and beyond-spec
 * feature (FEAT-), each with a title, where it comes from and a risk class with
 * its reason.
 */

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CATALOGUE_DIR = path.join(REPO_ROOT, 'validation/requirements');

/** An id as tests spell it in their titles: `SPEC-4`, `SPEC-2.10`, `RULE-ALARM-3`, `FEAT-E-SIGNATURE`. */
export const ID_PATTERN = /^(SPEC|RULE|FEAT)(-[A-Z0-9]+(\.[0-9]+)*)+$/;

export const RISKS = ['high', 'medium', 'low'] as const;
export type Risk = (typeof RISKS)[number];

const requirementSchema = z.strictObject({
  id: z.string().regex(ID_PATTERN, 'an id such as SPEC-4.2, RULE-ALARM-3 or FEAT-EVIDENCE-CHAIN'),
  title: z.string().trim().min(1),
  source: z.string().trim().min(1),
  risk: z.enum(RISKS),
  reason: z.string().trim().min(1),
});

const fileSchema = z.strictObject({
  about: z.string().trim().min(1),
  requirements: z.array(requirementSchema).min(1),
});

export type Requirement = z.infer<typeof requirementSchema>;

/** What each catalogue file holds: its ids all start with this prefix. */
const PREFIX_OF_FILE: Record<string, string> = {
  'spec.json': 'SPEC-',
  'rules.json': 'RULE-',
  'features.json': 'FEAT-',
};

export class CatalogueError extends Error {
  constructor(readonly problems: string[]) {
    super(`The requirement catalogue is malformed:\n- ${problems.join('\n- ')}`);
  }
}

/** Checks the catalogue's files (name → parsed JSON); throws a CatalogueError listing every problem. */
export function parseCatalogue(files: Record<string, unknown>): Requirement[] {
  const problems: string[] = [];
  const requirements: Requirement[] = [];
  const seen = new Map<string, string>();
  for (const [name, json] of Object.entries(files)) {
    const prefix = PREFIX_OF_FILE[name];
    if (prefix === undefined) {
      problems.push(`${name}: not a catalogue file (${Object.keys(PREFIX_OF_FILE).join(', ')})`);
      continue;
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        problems.push(`${name}: ${issue.path.join('.') || '(file)'}: ${issue.message}`);
      }
      continue;
    }
    for (const requirement of parsed.data.requirements) {
      if (!requirement.id.startsWith(prefix)) {
        problems.push(`${name}: ${requirement.id} does not start with ${prefix}`);
      }
      const earlier = seen.get(requirement.id);
      if (earlier !== undefined) {
        problems.push(`${name}: ${requirement.id} is also in ${earlier}`);
      }
      seen.set(requirement.id, name);
      requirements.push(requirement);
    }
  }
  for (const name of Object.keys(PREFIX_OF_FILE)) {
    if (!(name in files)) problems.push(`${name}: missing`);
  }
  if (problems.length > 0) throw new CatalogueError(problems);
  return requirements;
}

/** The catalogue of the repository (or of `dir`), checked. */
export function loadCatalogue(dir = CATALOGUE_DIR): Requirement[] {
  const files: Record<string, unknown> = {};
  // The spec, then the rules, then the features; any other file is refused by parseCatalogue.
  const names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  const order = Object.keys(PREFIX_OF_FILE);
  names.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      files[name] = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new CatalogueError([`${name}: not JSON (${(error as Error).message})`]);
    }
  }
  return parseCatalogue(files);
}
