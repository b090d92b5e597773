#!/usr/bin/env node
// The conformance kit's command. With --base-url it checks a deployment over HTTP (src/cli.ts, run through tsx, so a
// clone needs only `npm ci`); without, it runs the same checks in-process, as `npm test` does (turbo builds first).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const pointsAtDeployment = args.some((arg) => arg === '--base-url' || arg.startsWith('--base-url=') || arg === '--help' || arg === '-h');

if (pointsAtDeployment) {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/cli.ts');
  process.exit(await main(args.map((arg) => (arg === '-h' ? '--help' : arg))));
} else if (args.some((arg) => /^--(api-key|junit|receiver-host|receiver-port|receiver-url|only|seed|timeout-ms|max-requests|max-minutes)\b/.test(arg))) {
  console.error('payment-qr-conformance: these options check a deployment and need --base-url URL (see --help)');
  process.exit(2);
} else {
  // Anything else goes to vitest (a file or a test name to run).
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const turbo = spawnSync('npx', ['turbo', 'run', 'conformance', ...(args.length ? ['--', ...args] : [])], { cwd: root, stdio: 'inherit' });
  process.exit(turbo.status ?? 1);
}
