import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Child {
  name: string;
  process: ChildProcess;
  /** The last lines it wrote to stderr/stdout, for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after graceMs; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * `node <entry>` in its own process (own event loop), with extra env: through the tsx loader for a TypeScript entry
 * (`server/src/main.ts`), plain node for built JavaScript (`server/dist/main.js`).
 */
export function spawnNode(name: string, entry: string, options: { env: Record<string, string>; cwd: string; nodeArgs?: string[] }): Child {
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, entry], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    name,
    process: child,
    output: () => lines.join('\n'),
    async stop(graceMs = 5_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls url until it answers 2xx; fails early if the child dies, or after timeoutMs. */
export async function waitForHttp(url: string, child: Child, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(`${child.name} exited (${child.process.exitCode ?? child.process.signalCode}) before ${url} answered:\n${child.output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${child.output()}`);
    await sleep(100);
  }
}

/**
 * Cleanup that runs once, whatever ends the script: normal end, an error, Ctrl-C, SIGTERM, or the time limit.
 * Tasks run last-registered first (children before the databases they use).
 */
export function cleanupRegistry(): { add(task: () => Promise<unknown>): void; run(): Promise<void> } {
  const tasks: (() => Promise<unknown>)[] = [];
  let running: Promise<void> | null = null;
  const run = () =>
    (running ??= (async () => {
      for (const task of tasks.reverse())
        await task().catch((error: unknown) => console.error(`cleanup: ${error instanceof Error ? error.message : String(error)}`));
    })());
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: cleaning up`);
      void run().finally(() => process.exit(130));
    });
  }
  return { add: (task) => void tasks.push(task), run };
}
