import type { RequestOptions, RequestSender } from '../http.js';
import { PageIterable, pageOf } from '../pagination.js';
import type { CreateWebhookParams, DeletedWebhook, Webhook, WebhookDelivery, WebhookDeliveryListParams, WebhookEvent, WebhookListParams, WebhookSecret, components } from '../types.js';
import { verifyWebhook, type WebhookHeaders } from '../webhook-signature.js';

export class Webhooks {
  constructor(private readonly sender: RequestSender) {}

  /** Registers an https endpoint for the given events. Read its signing secret with `secret()`. */
  create(params: CreateWebhookParams, options?: RequestOptions): Promise<Webhook> {
    return this.sender.request<Webhook>({ method: 'POST', path: 'webhooks', body: params, options });
  }

  list(params: WebhookListParams = {}, options?: RequestOptions): PageIterable<Webhook> {
    return new PageIterable(
      async (page) => {
        const body = await this.sender.request<components['schemas']['WebhookList']>({ method: 'GET', path: 'webhooks', query: page, options });
        return pageOf(body.webhooks, body);
      },
      (webhook) => webhook.webhook_id,
      params,
    );
  }

  retrieve(webhookId: string, options?: RequestOptions): Promise<Webhook> {
    return this.sender.request<Webhook>({ method: 'GET', path: `webhooks/${encodeURIComponent(webhookId)}`, options });
  }

  delete(webhookId: string, options?: RequestOptions): Promise<DeletedWebhook> {
    return this.sender.request<DeletedWebhook>({ method: 'DELETE', path: `webhooks/${encodeURIComponent(webhookId)}`, options });
  }

  /** The webhook's signing secret (`whsec_...`), needed by `verify`. Keep it server-side. */
  secret(webhookId: string, options?: RequestOptions): Promise<WebhookSecret> {
    return this.sender.request<WebhookSecret>({ method: 'GET', path: `webhooks/${encodeURIComponent(webhookId)}/secret`, options });
  }

  /** The webhook's deliveries, newest first, with their attempts and retry state. */
  deliveries(webhookId: string, params: WebhookDeliveryListParams = {}, options?: RequestOptions): PageIterable<WebhookDelivery> {
    return new PageIterable(
      async (page) => {
        const body = await this.sender.request<components['schemas']['WebhookDeliveryList']>({
          method: 'GET',
          path: `webhooks/${encodeURIComponent(webhookId)}/deliveries`,
          query: page,
          options,
        });
        return pageOf(body.deliveries, body);
      },
      (delivery) => delivery.delivery_id,
      params,
    );
  }

  /**
   * Verifies a delivery's signature and timestamp and returns its event; throws WebhookVerificationError
   * otherwise. Pass the raw body exactly as received (in Express: `express.raw({ type: 'application/json' })`).
   */
  verify(rawBody: string | Uint8Array | ArrayBuffer, headers: WebhookHeaders, secret: string): WebhookEvent {
    return verifyWebhook(rawBody, headers, secret);
  }
}
