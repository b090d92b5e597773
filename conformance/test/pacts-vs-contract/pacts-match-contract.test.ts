import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SwaggerMockValidatorFactory, type ValidationResultItem } from '@pactflow/swagger-mock-validator';
import { describe, expect, it } from 'vitest';
import { merchantOperations } from '../../src/contract.js';
import { SERVED_PATHS_CONTRACT } from '../support/served-paths.js';
import { PACTS_DIR } from '../support/pact.js';

const explain = (item: ValidationResultItem): string =>
  `${item.code}: ${item.message}\n    interaction: ${item.mockDetails?.interactionDescription ?? '?'}\n    contract: ${item.specDetails?.location ?? '?'}`;

const pactFiles = existsSync(PACTS_DIR) ? readdirSync(PACTS_DIR).filter((name) => name.endsWith('.json')) : [];

describe('the pacts the SDK wrote, judged by the served-paths contract the contract package ships', () => {
  it('there is a pact to judge', () => {
    expect(pactFiles, `no pact in ${PACTS_DIR}: run the consumer tests first`).not.toHaveLength(0);
  });

  // Straight from the package, as a consumer team runs it (see the README); the JSON form is the same document.
  it.each(pactFiles)('%s asks and expects only what the contract documents', async (pactFile) => {
    const outcome = await SwaggerMockValidatorFactory.create().validate({
      specPathOrUrl: SERVED_PATHS_CONTRACT,
      mockPathOrUrl: join(PACTS_DIR, pactFile),
      // Honour the contract's own additionalProperties (metadata is open; every resource is closed) ...
      additionalPropertiesInResponse: 'true',
      // ... and require every expected body to hold all the properties the contract requires.
      requiredPropertiesInResponse: 'true',
    });
    const problems = [...outcome.errors, ...outcome.warnings].map(explain);
    expect(problems, problems.join('\n')).toEqual([]);
    expect(outcome.success).toBe(true);
  });

  it('hold a successful interaction for every operation of the contract', () => {
    const interactions = pactFiles.flatMap(
      (file) =>
        (
          JSON.parse(readFileSync(join(PACTS_DIR, file), 'utf8')) as {
            interactions: { request: { method: string; path: string }; response: { status: number } }[];
          }
        ).interactions,
    );
    const uncovered = merchantOperations
      .filter((op) => {
        const path = new RegExp(`^${op.servedPath.replace(/\{\w+\}/g, '[^/]+')}$`);
        return !interactions.some((i) => i.request.method === op.method.toUpperCase() && path.test(i.request.path) && i.response.status < 300);
      })
      .map((op) => op.operationId);
    expect(uncovered, 'operations the SDK has no successful interaction for').toEqual([]);
  });
});
