import { describe, expect, it } from 'vitest';
import { CatalogueError, loadCatalogue, parseCatalogue } from './catalogue';
import { ANY, scanRepository, scanSource, tagsOf } from './tags';

/**
 * The traceability check (docs/validation.md): the catalogue is well formed,
 * every tag in a test title names a requirement of it, every high-risk
 * requirement has a test, and every test proves some requirement. It reads the
 * test sources, so it needs no test run.
 */

const requirement = (id: string, risk = 'high') => ({
  id,
  title: `title of ${id}`,
  source: 'somewhere',
  risk,
  reason: 'because',
});
const file = (...requirements: object[]) => ({ about: 'a part', requirements });

describe('the requirement catalogue [FEAT-VALIDATION]', () => {
  it('is well formed: ids unique, each in the file of its kind, a risk and a reason each', () => {
    const requirements = loadCatalogue();
    expect(requirements.length).toBeGreaterThan(100);
    for (const prefix of ['SPEC-', 'RULE-', 'FEAT-']) {
      expect(requirements.some((r) => r.id.startsWith(prefix))).toBe(true);
    }
  });

  it('refuses a malformed catalogue, naming every problem', () => {
    const attempt = () =>
      parseCatalogue({
        'spec.json': file(
          requirement('SPEC-1'),
          requirement('RULE-X-1'),
          requirement('SPEC-2', 'severe'),
        ),
        'rules.json': file(requirement('RULE-X-1'), { ...requirement('RULE-X-2'), reason: ' ' }),
        'other.json': file(requirement('FEAT-A')),
      });
    expect(attempt).toThrow(CatalogueError);
    const problems = (() => {
      try {
        attempt();
        return [];
      } catch (error) {
        return (error as CatalogueError).problems;
      }
    })();
    expect(problems).toEqual([
      'spec.json: requirements.2.risk: Invalid option: expected one of "high"|"medium"|"low"',
      'rules.json: requirements.1.reason: Too small: expected string to have >=1 characters',
      'other.json: not a catalogue file (spec.json, rules.json, features.json)',
      'features.json: missing',
    ]);
    expect(() =>
      parseCatalogue({
        'spec.json': file(requirement('SPEC-1'), requirement('RULE-X-1')),
        'rules.json': file(requirement('RULE-X-1')),
        'features.json': file(requirement('FEAT-A'), requirement('FEAT-lower')),
      }),
    ).toThrow(
      /spec\.json: RULE-X-1 does not start with SPEC-\n- rules\.json: RULE-X-1 is also in spec\.json\n- features\.json: requirements\.1\.id: an id such as/,
    );
  });
});

describe('reading the tags of test titles [FEAT-VALIDATION]', () => {
  it('reads one or several ids per bracket, and only requirement ids', () => {
    expect(tagsOf('alarm lifecycle [RULE-ALARM-2]')).toEqual(['RULE-ALARM-2']);
    expect(tagsOf('shape [SPEC-5.1, SPEC-8] and [FEAT-E-SIGNATURE]')).toEqual([
      'SPEC-5.1',
      'SPEC-8',
      'FEAT-E-SIGNATURE',
    ]);
    expect(tagsOf('https://[::127.0.0.1]/ is refused [sic] [X-1]')).toEqual([]);
  });

  it('gives each test the tags of its describes, whatever the form of the call', () => {
    const source = `
      import { describe, it, test } from 'vitest';
      describe('outer [SPEC-1]', () => {
        beforeEach(() => {});
        it('plain [RULE-A-1]', () => {});
        describe.each([[1], [2]])('case %s [SPEC-2.10]', (n) => {
          it.each([1, 2])('inner %d', () => {});
          it(\`template \${n} [FEAT-X]\`, () => {});
        });
        for (const name of ['a', 'b']) it(name, () => {});
      });
      test.describe.serial('browser [FEAT-Y]', () => {
        test.beforeEach(async () => {});
        test('walks', async () => { await test.step('a step [FEAT-Z]', async () => {}); });
      });
      test('alone', () => {});
    `;
    const scan = scanSource('x.spec.ts', source);
    expect(scan.tests.map((t) => [t.titlePath.join(' > '), t.tags])).toEqual([
      ['outer [SPEC-1] > plain [RULE-A-1]', ['SPEC-1', 'RULE-A-1']],
      ['outer [SPEC-1] > case %s [SPEC-2.10] > inner %d', ['SPEC-1', 'SPEC-2.10']],
      [
        `outer [SPEC-1] > case %s [SPEC-2.10] > template ${ANY} [FEAT-X]`,
        ['SPEC-1', 'SPEC-2.10', 'FEAT-X'],
      ],
      [`outer [SPEC-1] > ${ANY}`, ['SPEC-1']],
      ['browser [FEAT-Y] > walks', ['FEAT-Y']],
      ['alone', []],
    ]);
    expect(scan.uses.map((u) => `${u.line}:${u.id}`)).toEqual([
      '3:SPEC-1',
      '5:RULE-A-1',
      '6:SPEC-2.10',
      '8:FEAT-X',
      '12:FEAT-Y',
    ]);
  });
});

describe('the tests of the repository and the catalogue [FEAT-VALIDATION]', () => {
  const requirements = loadCatalogue();
  const known = new Set(requirements.map((r) => r.id));
  const scan = scanRepository();

  it('name only requirements of the catalogue', () => {
    const unknown = scan.uses
      .filter((u) => !known.has(u.id))
      .map((u) => `${u.file}:${u.line} ${u.id}`);
    expect(unknown, 'tags naming no requirement of validation/requirements/').toEqual([]);
  });

  it('prove every high-risk requirement', () => {
    const proven = new Set(scan.tests.flatMap((t) => t.tags));
    const missing = requirements
      .filter((r) => r.risk === 'high' && !proven.has(r.id))
      .map((r) => r.id);
    expect(missing, 'high-risk requirements that no test is tagged with').toEqual([]);
  });

  it('each prove some requirement', () => {
    const untagged = new Map<string, number>();
    for (const t of scan.tests) {
      if (t.tags.length === 0) untagged.set(t.file, (untagged.get(t.file) ?? 0) + 1);
    }
    expect(
      [...untagged].map(([f, n]) => `${f}: ${n} test(s)`),
      'tests whose title and describes carry no requirement id',
    ).toEqual([]);
  });
});
