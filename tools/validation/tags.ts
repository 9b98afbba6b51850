import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './catalogue';

/**
 * Requirement tags in test titles, read from the test sources without running
 * them: `describe('alarm lifecycle [RULE-ALARM-2]', …)`, `it('… [SPEC-5.1, SPEC-8]', …)`.
 * A tag on a describe covers every test inside it.
 */

/** A bracket of one or more ids separated by commas: `[RULE-ALARM-2]`, `[SPEC-5.1, SPEC-8]`. */
const TAG_BLOCK =
  /\[((?:SPEC|RULE|FEAT)(?:-[A-Z0-9]+(?:\.[0-9]+)*)+(?:\s*,\s*[A-Z][A-Z0-9.-]*)*)\]/g;

/** The requirement ids a title carries. */
export function tagsOf(title: string): string[] {
  const ids: string[] = [];
  for (const match of title.matchAll(TAG_BLOCK)) {
    for (const id of match[1]!.split(',')) ids.push(id.trim());
  }
  return ids;
}

/** Marks the part of a title the source does not fix (a `${…}`, a `%s` of `.each`, a title in a variable). */
export const ANY = '\u0000';

export interface StaticTest {
  /** Path from the repository root, with `/`. */
  file: string;
  line: number;
  /** The enclosing describe titles, then the test's (ANY where computed). */
  titlePath: string[];
  /** Its own tags and those of every enclosing describe. */
  tags: string[];
}

export interface TagUse {
  file: string;
  line: number;
  id: string;
}

export interface StaticScan {
  tests: StaticTest[];
  /** Every tag written, where (for unknown ids). */
  uses: TagUse[];
}

const SUITE = new Set(['describe', 'suite']);
const TEST = new Set(['it', 'test']);
/** Calls on `test` that are not tests: Playwright's hooks, steps and settings. */
const NOT_A_TEST = new Set([
  'beforeAll',
  'beforeEach',
  'afterAll',
  'afterEach',
  'step',
  'use',
  'extend',
  'info',
  'setTimeout',
  'slow',
  'expect',
  'configure',
]);

/** `describe`, `describe.skip`, `test.describe.serial`, `it.each([...])` → the names along the callee. */
function calleeNames(node: ts.Expression): string[] | undefined {
  if (ts.isIdentifier(node)) return [node.text];
  if (ts.isPropertyAccessExpression(node)) {
    const left = calleeNames(node.expression);
    return left && [...left, node.name.text];
  }
  if (ts.isCallExpression(node)) return calleeNames(node.expression); // `.each(table)` then `(title, fn)`
  return undefined;
}

function kindOf(call: ts.CallExpression): 'suite' | 'test' | undefined {
  const names = calleeNames(call.expression);
  if (names === undefined || !(SUITE.has(names[0]!) || TEST.has(names[0]!))) return undefined;
  if (names.some((n) => NOT_A_TEST.has(n))) return undefined;
  if (names.some((n) => SUITE.has(n))) return 'suite';
  // `it.each(table)` is the table step; its result called with the title is the test.
  if (names.at(-1) === 'each' && !ts.isCallExpression(call.expression)) return undefined;
  return 'test';
}

function titleText(node: ts.Expression | undefined): string {
  if (node === undefined) return ANY;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return node.head.text + node.templateSpans.map((s) => ANY + s.literal.text).join('');
  }
  return ANY;
}

/** The tests of one source text and the tags they carry. */
export function scanSource(file: string, text: string): StaticScan {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const tests: StaticTest[] = [];
  const uses: TagUse[] = [];
  const visit = (node: ts.Node, titles: string[], tags: string[]): void => {
    if (ts.isCallExpression(node)) {
      const kind = kindOf(node);
      if (kind !== undefined) {
        const title = titleText(node.arguments[0]);
        const own = tagsOf(title);
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        for (const id of own) uses.push({ file, line, id });
        const all = [...new Set([...tags, ...own])];
        if (kind === 'test') tests.push({ file, line, titlePath: [...titles, title], tags: all });
        for (const arg of node.arguments.slice(1)) visit(arg, [...titles, title], all);
        return;
      }
    }
    ts.forEachChild(node, (child) => visit(child, titles, tags));
  };
  visit(source, [], []);
  return { tests, uses };
}

/** Where the tests live: Vitest's projects and the browser specs. */
const TEST_ROOTS = [
  'apps/server',
  'apps/web/src',
  'packages/contract/src',
  'packages/domain/src',
  'tools',
  'e2e',
];
const IS_TEST = /\.(test|spec)\.tsx?$/;

export function testFiles(root = REPO_ROOT): string[] {
  const files: string[] = [];
  for (const dir of TEST_ROOTS) {
    for (const entry of readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })) {
      const rel = `${dir}/${entry.split(path.sep).join('/')}`;
      if (IS_TEST.test(rel) && !/(^|\/)(node_modules|dist)\//.test(rel)) files.push(rel);
    }
  }
  return files.sort();
}

/** Every test of the repository and its tags. */
export function scanRepository(root = REPO_ROOT): StaticScan {
  const tests: StaticTest[] = [];
  const uses: TagUse[] = [];
  for (const file of testFiles(root)) {
    const scan = scanSource(file, readFileSync(path.join(root, file), 'utf8'));
    tests.push(...scan.tests);
    uses.push(...scan.uses);
  }
  return { tests, uses };
}
