import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Migrates once per run: servers start from a migrated snapshot or template (test/support/migrated-start.ts).
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['../scripts/lib/loopback-only.ts', '../scripts/lib/cpu-per-file.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
  },
});
