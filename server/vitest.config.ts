import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['test/**/*.test.ts'], setupFiles: ['../scripts/lib/loopback-only.ts'], testTimeout: 30000, hookTimeout: 60000 },
});
