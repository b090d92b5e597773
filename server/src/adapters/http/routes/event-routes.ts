import { Router } from 'express';
import type { components } from '@payment-qr/contract';
import { listEvents, retrieveEvent } from '../../../app/events.js';
import type { Services } from '../../../app/services.js';
import { eventKinds } from '../../../domain/events.js';
import { dateRangeOf, enumParam, pageRequestOf } from '../list-query.js';
import { toListBody } from '../mappers.js';
import { merchantOf } from '../request-context.js';
import { unknownWhenUnstorable } from './path-ids.js';

type Schemas = components['schemas'];

// The stored payload is already the wire shape: an event reads exactly as its webhook payload.
const asWireEvent = (payload: unknown): Schemas['Event'] => payload as Schemas['Event'];

/** The events API: what was sent, or would have been, to the merchant's webhooks in the last 30 days. */
export function eventRoutes(s: Services): Router {
  const router = Router();
  unknownWhenUnstorable(router, { event_id: 'event_not_found' });

  router.get('/events', async (req, res) => {
    const page = pageRequestOf(req);
    const filter = { ...dateRangeOf(req), kind: enumParam(req, 'type', eventKinds) };
    res.json(toListBody('events', await listEvents(s, merchantOf(res), filter, page), page, asWireEvent) satisfies Schemas['EventList']);
  });

  router.get('/events/:event_id', async (req, res) => {
    res.json(asWireEvent(await retrieveEvent(s, merchantOf(res), String(req.params.event_id))));
  });

  return router;
}
