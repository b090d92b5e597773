import { describe, expect, it } from 'vitest';
import { contractValidators } from '../../src/adapters/http/validation.js';

/**
 * The contract's validators are built once per process for each setting (building one checks the whole contract and
 * compiles it): every app of the process mounts the same ones, and a server that checks its answers never shares them
 * with one that does not.
 */
describe('the contract validators', () => {
  it('are built once per process for each setting, never shared between the two', () => {
    const checking = contractValidators({ validateResponses: true });
    const trusting = contractValidators({ validateResponses: false });
    expect(contractValidators({ validateResponses: true })).toBe(checking);
    expect(contractValidators({ validateResponses: false })).toBe(trusting);
    expect(checking.map(({ basePath }) => basePath)).toEqual(trusting.map(({ basePath }) => basePath));
    checking.forEach(({ validator }, i) => expect(validator).not.toBe(trusting[i]!.validator));
  });
});
