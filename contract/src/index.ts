import { fileURLToPath } from 'node:url';
import type { components } from './generated/openapi.js';

/** Absolute path of the hand-written contract, e.g. for request/response validators. */
export const contractPath: string = fileURLToPath(new URL('../openapi.yaml', import.meta.url));

export type { paths, components, operations, webhooks } from './generated/openapi.js';

export type Schemas = components['schemas'];
export type Schema<Name extends keyof Schemas> = Schemas[Name];

export type ErrorBody = Schemas['Error'];
export type ErrorCode = Schemas['ErrorCode'];
export type ErrorType = Schemas['ErrorType'];
export type QrCode = Schemas['QrCode'];
export type Payment = Schemas['Payment'];
export type PaymentStatus = Schemas['PaymentStatus'];
export type Refund = Schemas['Refund'];
export type Transaction = Schemas['Transaction'];
export type Webhook = Schemas['Webhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookEventType = Schemas['WebhookEventType'];
export type WebhookEvent = Schemas['PaymentEvent'] | Schemas['RefundEvent'];
