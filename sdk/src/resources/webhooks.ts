import type { RequestOptions, RequestSender } from '../http.js';
import { PageIterable, pageOf } from '../pagination.js';
import type {
  CreateWebhookParams,
  DeletedWebhook,
  RotateWebhookSecretParams,
  UpdateWebhookParams,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryListParams,
  WebhookEvent,
  WebhookListParams,
  WebhookSecret,
  components,
} from '../types.js';
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

  /** Changes the URL, the event kinds, or the status (`disabled` stops deliveries; `active` re-enables one, also after a 410). */
  update(webhookId: string, params: UpdateWebhookParams, options?: RequestOptions): Promise<Webhook> {
    return this.sender.request<Webhook>({ method: 'PATCH', path: `webhooks/${encodeURIComponent(webhookId)}`, body: params, options });
  }

  /**
   * A new signing secret, answered once. The previous one keeps signing beside it for
   * `expire_previous_in_seconds` (default 86400): deploy the new secret to your receiver within that window
   * (`verify` takes both meanwhile) and no event is lost.
   */
  rotateSecret(webhookId: string, params: RotateWebhookSecretParams = {}, options?: RequestOptions): Promise<WebhookSecret> {
    return this.sender.request<WebhookSecret>({ method: 'POST', path: `webhooks/${encodeURIComponent(webhookId)}/rotate-secret`, body: params, options });
  }

  /** Sends a signed `webhook.test` event to this endpoint only; answers its delivery. */
  sendTest(webhookId: string, options?: RequestOptions): Promise<WebhookDelivery> {
    return this.sender.request<WebhookDelivery>({ method: 'POST', path: `webhooks/${encodeURIComponent(webhookId)}/test`, options });
  }

  /** Delivers the event again now, also after `failed`: the same delivery, with the same `webhook-id`. */
  retryDelivery(webhookId: string, deliveryId: string, options?: RequestOptions): Promise<WebhookDelivery> {
    return this.sender.request<WebhookDelivery>({
      method: 'POST',
      path: `webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/retry`,
      options,
    });
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
   * While you rotate the secret, pass both, `[newSecret, oldSecret]`: a delivery signed by either passes.
   */
  verify(rawBody: string | Uint8Array | ArrayBuffer, headers: WebhookHeaders, secret: string | readonly string[]): WebhookEvent {
    return verifyWebhook(rawBody, headers, secret);
  }
}
