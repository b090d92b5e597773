import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Migrates once per run: servers start from a migrated snapshot or template (test/support/migrated-start.ts).
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['../scripts/lib/loopback-only.ts', '../scripts/lib/cpu-per-file.ts'],
    // Files share their worker's loaded modules (the server, PGlite) instead of importing them again each: every file
    // stops what it starts (sharedByFile's afterAll). Two workers, one per core (vitest's default leaves one core idle).
    isolate: false,
    maxWorkers: 2,
    testTimeout: 30000,
    hookTimeout: 60000,
  },
});
