import type { ServerResponse } from 'node:http';

/** On every response, whoever answers it: browsers never guess a content type other than the one sent. */
export const NOSNIFF: [name: string, value: string] = ['X-Content-Type-Options', 'nosniff'];

export function everyResponse(res: ServerResponse): void {
  res.setHeader(...NOSNIFF);
}

/** On every merchant API response: they hold merchants' data, so no cache along the way may keep one. */
export function merchantApiResponse(res: ServerResponse): void {
  res.setHeader('Cache-Control', 'no-store');
}
