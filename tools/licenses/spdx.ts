/**
 * The licence rule of the licence check: which SPDX licence expressions a shipped
 * package may carry. Pure functions, no file access (check.ts reads the packages).
 */

/**
 * The licences a package shipped with Coldtrace (MIT) may carry: OSI-approved ones, and
 * for data and fonts CC0 and Bitstream Vera; all of them permissive (MPL-2.0: copyleft
 * for its own files only, kept unmodified), so the app, its Docker image and its web
 * bundle stay MIT with the packages' notices kept. Compared without regard to case, as
 * SPDX says.
 *
 * Not here on purpose (a package under one of them fails, unless an exception in
 * exceptions.json says why it is acceptable):
 * - GPL and AGPL (any version): copyleft over the whole program, so the server (and for
 *   a bundled library, the web bundle) could then only be distributed under the GPL,
 *   not MIT.
 * - LGPL: acceptable in principle for a separate library used unmodified, but its terms
 *   (replaceable library, its source offered) need a decision per package, above all in
 *   the web bundle, where the library is merged into our chunks. None is shipped today.
 * - Licences that are not OSI-approved (Hippocratic, Commons Clause, CC-BY-NC, SSPL,
 *   BUSL...), and LicenseRef-* (a licence of the package's own, to be read).
 */
export const ALLOWED_LICENSES: readonly string[] = [
  'MIT',
  'MIT-0',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  '0BSD',
  'MPL-2.0',
  'BlueOak-1.0.0',
  'CC0-1.0', // data and fonts; public-domain dedication
  'OFL-1.1', // fonts
  // Fonts (DejaVu, in the PDF reports): permissive (keep the notice, rename a modified font,
  // do not sell the fonts alone); a free licence for Debian and the FSF, not OSI-approved,
  // as few font licences are.
  'Bitstream-Vera',
  'Python-2.0',
  'Unlicense',
  'Zlib',
  'PostgreSQL', // the embedded PostgreSQL server's binaries
];

const allowed = new Set(ALLOWED_LICENSES.map((id) => id.toLowerCase()));

/** A parsed SPDX licence expression. */
export type LicenseExpression =
  | { kind: 'license'; id: string; exception?: string }
  | { kind: 'and' | 'or'; left: LicenseExpression; right: LicenseExpression };

export class LicenseSyntaxError extends Error {}

/**
 * Parses an SPDX licence expression: ids (`MIT`, `Apache-2.0`, `GPL-2.0+`,
 * `LicenseRef-x`), `WITH` an exception, `AND`, `OR` and parentheses, AND binding
 * tighter than OR (SPDX annex D). Throws LicenseSyntaxError on anything else
 * ("BSD", "SEE LICENSE IN LICENSE", "Apache 2.0").
 */
export function parseLicenseExpression(text: string): LicenseExpression {
  const tokens = text.match(/\(|\)|[^\s()]+/g) ?? [];
  let position = 0;
  const peek = () => tokens[position];
  const isOperator = (token: string | undefined, name: string) => token?.toUpperCase() === name;
  const fail = (why: string): never => {
    throw new LicenseSyntaxError(`"${text}" is not an SPDX licence expression: ${why}`);
  };

  function primary(): LicenseExpression {
    const token = tokens[position++];
    if (token === undefined) return fail('it ends too early');
    if (token === '(') {
      const inner = or();
      if (tokens[position++] !== ')') fail('a parenthesis is not closed');
      return inner;
    }
    if (token === ')' || ['AND', 'OR', 'WITH'].includes(token.toUpperCase())) {
      return fail(`"${token}" where a licence id belongs`);
    }
    if (!/^(LicenseRef-|DocumentRef-[\w.-]+:LicenseRef-)?[A-Za-z0-9.-]+\+?$/.test(token)) {
      return fail(`"${token}" is not a licence id`);
    }
    if (isOperator(peek(), 'WITH')) {
      position++;
      const exception = tokens[position++];
      if (exception === undefined || !/^[A-Za-z0-9.-]+$/.test(exception)) {
        fail('WITH needs an exception id');
      }
      return { kind: 'license', id: token, exception };
    }
    return { kind: 'license', id: token };
  }
  function and(): LicenseExpression {
    let left = primary();
    while (isOperator(peek(), 'AND')) {
      position++;
      left = { kind: 'and', left, right: primary() };
    }
    return left;
  }
  function or(): LicenseExpression {
    let left = and();
    while (isOperator(peek(), 'OR')) {
      position++;
      left = { kind: 'or', left, right: and() };
    }
    return left;
  }

  if (tokens.length === 0) fail('it is empty');
  const expression = or();
  if (position < tokens.length) fail(`"${tokens[position]}" after the end`);
  return expression;
}

/**
 * Whether a parsed expression may ship: an id on the allow-list (a `+`, "or any later
 * version", changes nothing; an exception only grants more, so `X WITH e` is judged by
 * X); OR passes when either side does (we choose that licence), AND when both do.
 */
export function isExpressionAllowed(expression: LicenseExpression): boolean {
  switch (expression.kind) {
    case 'license':
      return allowed.has(expression.id.replace(/\+$/, '').toLowerCase());
    case 'and':
      return isExpressionAllowed(expression.left) && isExpressionAllowed(expression.right);
    case 'or':
      return isExpressionAllowed(expression.left) || isExpressionAllowed(expression.right);
  }
}

/** The verdict on a package's declared licence text (undefined: it declares none). */
export type LicenseVerdict =
  { ok: true } | { ok: false; reason: 'missing' | 'not-allowed' | 'not-spdx'; detail: string };

export function judgeLicense(text: string | undefined): LicenseVerdict {
  if (text === undefined || text.trim() === '') {
    return { ok: false, reason: 'missing', detail: 'declares no licence' };
  }
  let expression: LicenseExpression;
  try {
    expression = parseLicenseExpression(text);
  } catch (error) {
    if (error instanceof LicenseSyntaxError) {
      return { ok: false, reason: 'not-spdx', detail: error.message };
    }
    throw error;
  }
  return isExpressionAllowed(expression)
    ? { ok: true }
    : { ok: false, reason: 'not-allowed', detail: `${text} is not on the allow-list` };
}
