import { afterAll, describe, it } from 'vitest';
import type { Group } from '../../src/check.js';
import { kitFor, runCheck } from '../../src/run.js';
import type { Target } from '../../src/target.js';

/**
 * The kit's checks of one group as tests, against a service the test started: the same checks `npm run conformance --
 * --base-url` runs against a deployment. A check this target cannot run fails here: an in-process run runs them all.
 */
export function testGroup(group: Group, target: Target, options: { seed?: number } = {}): void {
  const kit = kitFor(target, options.seed === undefined ? {} : { seed: options.seed });
  describe(group.title, () => {
    for (const check of group.checks(kit)) {
      // A group's shared work (the pact verifier's run, the records a group reads) falls on its first check.
      it(
        check.name,
        async () => {
          const result = await runCheck(kit, group.name, check);
          if (result.outcome === 'not-run') throw new Error(`not run against this service: ${result.message}`);
          if (result.outcome === 'failed') throw new Error(result.message);
        },
        300_000,
      );
    }
    afterAll(async () => {
      await group.cleanup?.(kit);
    });
  });
}
