import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Examples import '@payment-qr/sdk' as a merchant would; tests run them against the source.
    alias: { '@payment-qr/sdk': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Servers start from the run's migrated snapshot or template (server/test/support/migrated-start.ts).
    globalSetup: ['../server/test/support/global-setup.ts'],
    setupFiles: ['../scripts/lib/loopback-only.ts', '../scripts/lib/cpu-per-file.ts'],
    // As the server's suite: files share their worker's loaded modules (the server, PGlite) and stop what they start
    // (afterAll); two workers, one per core.
    isolate: false,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
