import { createServer } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { freePort } from '../support/prism.js';

// A service that only counts: the command must refuse before it sends anything.
let requests = 0;
const counter = createServer((_request, response) => {
  requests += 1;
  response.writeHead(500).end();
});
await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(counter.address() as { port: number }).port}`;
afterAll(() => new Promise<void>((resolve) => counter.close(() => resolve())));

const run = async (args: string[]) => {
  const printed: string[] = [];
  const code = await main(args, (line) => printed.push(line));
  return { code, output: printed.join('\n') };
};

describe('payment-qr-conformance refuses before any request', () => {
  it.each(['sk_live_51HzQpLmNoPqRsTuVwXyZ0123', 'rk_live_51HzQpLmNoPqRsTuVwXyZ0123'])('a live key (%s), masked in the message', async (key) => {
    const { code, output } = await run(['--base-url', url, '--api-key', key]);
    expect(code).toBe(2);
    expect(output).toMatch(/refused: (sk|rk)_live_…0123 is a live key/);
    expect(output).not.toContain(key);
    expect(requests).toBe(0);
  });

  it.each([
    [['--base-url', url, '--api-key', 'pk_test_123'], /is not a sandbox secret or restricted key/],
    [['--api-key', 'sk_test_123'], /--base-url is required/],
    [['--base-url', 'ftp://example.test', '--api-key', 'sk_test_123'], /must be http or https/],
    [['--base-url', url, '--api-key', 'sk_test_123', '--only', 'pact,nonsense'], /unknown group nonsense/],
    [['--base-url', url, '--api-key', 'sk_test_123', '--receiver-port', '9000'], /need --receiver-host/],
  ])('bad usage %j', async (args, message) => {
    const { code, output } = await run(args);
    expect(code).toBe(2);
    expect(output).toMatch(message);
    expect(requests).toBe(0);
  });
});

describe('payment-qr-conformance against an address where nothing listens', () => {
  it('fails its first check, says why, and tries nothing else', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const { code, output } = await run(['--base-url', closed, '--api-key', 'sk_test_nothing_listens']);
    expect(code).toBe(1);
    expect(output).toMatch(/FAIL {2}service › .*\n.*the service cannot be reached, so nothing else is tried/);
    expect(output.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed');
    expect(output).not.toMatch(/^(PASS|SKIP)/m);
  });
});
