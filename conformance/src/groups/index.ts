import type { Group } from '../check.js';
import { bankGroup } from './bank.js';
import { errorsGroup } from './errors.js';
import { generatedGroup } from './generated.js';
import { idempotencyGroup } from './idempotency.js';
import { pactGroup } from './pact.js';
import { paginationGroup } from './pagination.js';
import { rateLimitsGroup } from './rate-limits.js';
import { requestIdGroup } from './request-id.js';
import { webhooksGroup } from './webhooks.js';

/** Every group of checks, in the order a run takes them; `--only NAME` picks some. */
export const GROUPS: Group[] = [
  pactGroup,
  errorsGroup,
  idempotencyGroup,
  paginationGroup,
  requestIdGroup,
  rateLimitsGroup,
  generatedGroup,
  webhooksGroup,
  bankGroup,
];
