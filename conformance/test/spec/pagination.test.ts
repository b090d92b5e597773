import { afterAll } from 'vitest';
import { paginationGroup } from '../../src/groups/pagination.js';
import { manualClock, startService } from '../support/in-process.js';
import { testGroup } from '../support/kit.js';

// The kit moves this clock so that records share creation times, and the order must fall back on the id.
const service = await startService({ clock: manualClock(new Date('2026-11-20T08:00:00.000Z')) });
afterAll(() => service.stop());

testGroup(paginationGroup, service.target);
