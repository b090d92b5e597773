import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suite is a pipeline: the SDK writes pacts, the contract judges them, the server honours them, then spec rules,
 * then outside tools (Prism, the packed SDK), then the kit as QA runs it against a deployment.
 */
const PHASES = ['/test/consumer/', '/test/pacts-vs-contract/', '/test/provider/', '/test/spec/', '/test/tools/', '/test/kit/'];
const PACTS_DIR = fileURLToPath(new URL('./pacts', import.meta.url));

const phaseOf = (file: TestSpecification): number => PHASES.findIndex((phase) => file.moduleId.includes(phase));

class PipelineSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Only here is the run plan known: when the consumer phase runs, it starts from no pact so none goes stale.
    if (files.some((file) => phaseOf(file) === 0)) rmSync(PACTS_DIR, { recursive: true, force: true });
    return [...files].sort((a, b) => phaseOf(a) - phaseOf(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // In-process services start from the run's migrated snapshot (server/test/support/migrated-start.ts).
    globalSetup: ['../server/test/support/global-setup.ts'],
    setupFiles: ['../scripts/lib/loopback-only.ts', '../scripts/lib/cpu-per-file.ts'],
    // One file at a time, in pipeline order; modules (the server, Pact's native core) are loaded once, not per file.
    fileParallelism: false,
    isolate: false,
    sequence: { sequencer: PipelineSequencer },
    env: { PACT_DO_NOT_TRACK: 'true' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
