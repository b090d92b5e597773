import { Router } from 'express';
import type { Services } from '../../../app/services.js';

// Filled in by the webhooks work: registration, listing, secrets and deliveries.
export type WebhookRouteDeps = Record<string, never>;

export function webhookRoutes(_s: Services, _deps: WebhookRouteDeps): Router {
  return Router();
}
