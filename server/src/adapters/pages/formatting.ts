/** Satang as people read it: ฿1,500.00 (a minus sign in front of a debit). */
export function formatBaht(satang: number): string {
  const sign = satang < 0 ? '-' : '';
  const abs = Math.abs(satang);
  return `${sign}฿${Math.trunc(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}

/** The time left until `expiresAt` as a countdown shows it: 14:59 (0:00 once past). */
export function timeLeft(expiresAt: Date, now: Date): string {
  const seconds = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
