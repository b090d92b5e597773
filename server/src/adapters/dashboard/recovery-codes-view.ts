import { fill, type Messages } from './messages.js';

/**
 * Recovery codes as a page shows them, once: the list, and the same as a text file to download. The file is a data:
 * URL written here (the codes are never stored readable, so no later request could serve them); no script needed.
 */
export function recoveryCodesView(t: Messages, email: string, codes: readonly string[]) {
  const file = `${fill(t.recovery.fileHeading, { email })}\r\n\r\n${codes.join('\r\n')}\r\n`;
  return {
    codes,
    downloadHref: `data:text/plain;charset=utf-8,${encodeURIComponent(file)}`,
    fileName: 'recovery-codes.txt',
  };
}
