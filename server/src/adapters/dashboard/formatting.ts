/** A list page's position, `?offset=` as sent when it is a whole number, else the start. */
export function offsetOf(text: unknown): number {
  const value = typeof text === 'string' && /^\d{1,7}$/.test(text) ? Number(text) : 0;
  return value;
}
