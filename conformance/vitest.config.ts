import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suite is a pipeline: the SDK writes pacts (the consumer phase), then everything that reads them or stands alone:
 * the contract judges the pacts, the server honours them, spec rules, outside tools (Prism, the packed SDK), the kit as
 * QA runs it against a deployment. The consumer phase runs first and alone (its files add to one pact file); the rest
 * run two files at a time (vitest's projects, `sequence.groupOrder`), each file starting and stopping its own service.
 */
const PHASES = ['/test/consumer/', '/test/pacts-vs-contract/', '/test/provider/', '/test/spec/', '/test/tools/', '/test/kit/'];
const PACTS_DIR = fileURLToPath(new URL('./pacts', import.meta.url));

const phaseOf = (file: TestSpecification): number => PHASES.findIndex((phase) => file.moduleId.includes(phase));

class PipelineSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Only here is the run plan known: when the consumer phase runs, it starts from no pact so none goes stale.
    if (files.some((file) => phaseOf(file) === 0)) rmSync(PACTS_DIR, { recursive: true, force: true });
    // After the consumers, the last phases first: the kit's files are the longest, so the two workers end together.
    const order = (file: TestSpecification) => (phaseOf(file) === 0 ? -1 : PHASES.length - phaseOf(file));
    return [...files].sort((a, b) => order(a) - order(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

const shared = {
  setupFiles: ['../scripts/lib/loopback-only.ts', '../scripts/lib/cpu-per-file.ts'],
  // Modules (the server, Pact's native core) are loaded once per worker, not per file: every file stops what it starts.
  isolate: false,
  env: { PACT_DO_NOT_TRACK: 'true' },
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    sequence: { sequencer: PipelineSequencer },
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'consumer',
          include: ['test/consumer/**/*.test.ts'],
          // One file at a time: each adds its interactions to the same pact file.
          fileParallelism: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'provider',
          include: ['test/**/*.test.ts'],
          exclude: ['test/consumer/**'],
          // In-process services start from the run's migrated snapshot (server/test/support/migrated-start.ts).
          globalSetup: ['../server/test/support/global-setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
