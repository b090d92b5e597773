import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

export interface PrismMock {
  /** Origin of the mock, e.g. http://127.0.0.1:40123: the SDK's baseUrl, unchanged but for the host. */
  url: string;
  stop(): Promise<void>;
}

/** A loopback port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const prismCli = (): string => {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@stoplight/prism-cli/package.json');
  const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: { prism: string } };
  return join(dirname(manifestPath), bin.prism);
};

/**
 * `prism mock SPEC` as a user runs it, in a child process on a free loopback port. `--errors` turns every request
 * or response that breaks the contract into an error answer with an `sl-violations` header.
 */
export async function startPrismMock(specPath: string): Promise<PrismMock> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [prismCli(), 'mock', '--host', '127.0.0.1', '--port', String(port), '--errors', specPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism mock did not start within 90 s:\n${output}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism mock exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
