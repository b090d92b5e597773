import { PassThrough } from 'node:stream';
import pino, { type Logger } from 'pino';

/** A logger at info level whose every line is parsed (JSON) into `lines` as it is written: what a server logged. */
export function loggerInto(lines: Record<string, unknown>[]): Logger {
  const stream = new PassThrough();
  let partial = '';
  stream.on('data', (chunk: Buffer) => {
    const complete = (partial + chunk.toString('utf8')).split('\n');
    partial = complete.pop()!;
    for (const line of complete) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return pino({ level: 'info' }, stream);
}
