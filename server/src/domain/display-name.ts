/** The longest name the operator may give a merchant or a payout account, in characters (Unicode code points). */
export const DISPLAY_NAME_MAX_LENGTH = 100;

// C0 and C1 controls (tab and line breaks included), and the bidirectional controls that make a name read as another.
const CONTROL_CHARACTERS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

/**
 * Why a name shown on screens, in bank files and in spreadsheets is refused, or null when it is fine. The name is
 * judged as given (a control character at its end counts) and its length after trimming.
 */
export function displayNameProblem(name: string): string | null {
  if (CONTROL_CHARACTERS.test(name)) return 'must not hold control characters (tab, line break, ...)';
  const length = [...name.trim()].length;
  if (length === 0) return 'must not be empty';
  if (length > DISPLAY_NAME_MAX_LENGTH) return `must be at most ${DISPLAY_NAME_MAX_LENGTH} characters (it has ${length})`;
  return null;
}
