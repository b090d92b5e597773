import { expect, it } from 'vitest';
import { describeErrors, schemaRef, validatorFor } from '../../src/contract.js';

// QA reads a schema difference and must see what the contract wanted, not only that it differed.
it('names the values the contract allows when an answer has another', () => {
  const validate = validatorFor(schemaRef('Error'));
  const envelope = { error: { code: 'no_such_code', type: 'validation_error', message: 'm', request_id: 'req_1' } };
  expect(validate(envelope)).toBe(false);
  const said = describeErrors(validate.errors);
  expect(said).toMatch(/\/error\/code must be equal to one of the allowed values \(allowed: "[a-z_]+", /);
  expect(said).toContain('"invalid_amount"');
});
