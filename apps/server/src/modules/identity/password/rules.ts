import { COMMON_PASSWORDS } from './common-passwords';

/**
 * Password rules (issue 5, hardened in issue 10 after NIST SP 800-63B): at
 * least 8 characters, not only digits, not one of the most common passwords,
 * not the username or e-mail, and not easy to guess by the zxcvbn-ts strength
 * estimator (its common-password, name and English word lists, keyboard
 * patterns, repeats, sequences and dates): a score of at least 3 of 4.
 * Long passphrases are welcome (up to 1024 characters, far beyond the 64 a
 * password manager may generate).
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;
/** zxcvbn score a new password needs (3: "safely unguessable", about 10^8 guesses and more). */
export const PASSWORD_MIN_SCORE = 3;
/** zxcvbn looks at this many characters (its matching grows with the length). */
const ESTIMATED_LENGTH = 100;

type Estimator = (password: string, userInputs: string[]) => { score: number; warning: string };

let estimator: Promise<Estimator> | undefined;

/** The strength estimator with its dictionaries, loaded once on first use (a few MB). */
function loadEstimator(): Promise<Estimator> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    const zxcvbn = new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
      maxLength: ESTIMATED_LENGTH,
    });
    return (password, userInputs) => {
      const result = zxcvbn.check(password.slice(0, ESTIMATED_LENGTH), userInputs);
      return { score: result.score, warning: result.feedback.warning ?? '' };
    };
  })();
  return estimator;
}

/** The reason a new password is refused, or undefined when it is acceptable. */
export async function passwordProblem(
  password: string,
  user?: { username?: string; email?: string; firstName?: string; lastName?: string },
): Promise<string | undefined> {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return `This password is too short. It must contain at least ${PASSWORD_MIN_LENGTH} characters.`;
  }
  if (length > PASSWORD_MAX_LENGTH) {
    return `This password is too long. It may contain at most ${PASSWORD_MAX_LENGTH} characters.`;
  }
  if (/^\d+$/.test(password)) return 'This password is entirely numeric.';
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower) || COMMON_PASSWORDS.has(lower.trim())) {
    return 'This password is too common.';
  }
  const names = [user?.username, user?.email, user?.email?.split('@')[0]]
    .filter((n): n is string => typeof n === 'string' && n.length >= 3)
    .map((n) => n.toLowerCase());
  if (names.includes(lower)) return 'This password is too similar to the username or e-mail.';
  const estimate = await loadEstimator();
  const userInputs = [...names, user?.firstName, user?.lastName, 'coldtrace'].filter(
    (n): n is string => typeof n === 'string' && n.length >= 3,
  );
  const { score, warning } = estimate(password, userInputs);
  if (score < PASSWORD_MIN_SCORE) {
    const why = warning ? ` ${warning.replace(/\.?$/, '.')}` : '';
    return `This password is too easy to guess.${why} Use a longer passphrase of several unrelated words.`;
  }
  return undefined;
}
