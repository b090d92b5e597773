/** The time left until `expiresAt` as a countdown shows it: 14:59 (0:00 once past). */
export function timeLeft(expiresAt: Date, now: Date): string {
  const seconds = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
