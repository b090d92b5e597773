import type { Mode } from '../domain/merchant.js';
import type { AccountSecrets } from '../ports/accounts.js';
import type { ApiKeys } from '../ports/api-keys.js';
import type { BankConnection, CustomerBank, SandboxSlipBank, SlipCodec } from '../ports/bank.js';
import type { CardProcessor } from '../ports/card-processor.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/ids.js';
import type { AutomatedPayoutRail, BulkTransferFile } from '../ports/payout-rail.js';
import type { OperationalMetrics } from '../ports/metrics.js';
import type { UnitOfWork } from '../ports/repositories.js';
import type { StatementRenderer, TaxInvoiceRenderer } from '../ports/documents.js';
import type { TaxParty } from '../domain/tax-invoice.js';
import type { DeliveryQueue, WebhookSender, WebhookSigner, WebhookUrlGuard } from '../ports/webhook-delivery.js';

/** What the use cases need from the world, built once by the composition root. */
export interface Services {
  uow: UnitOfWork;
  clock: Clock;
  ids: IdGenerator;
  apiKeys: ApiKeys;
  bank: CustomerBank;
  /** The live bank connection (BANK=scb); null: live keys cannot take QR payments. */
  bankConnection: BankConnection | null;
  /** The bank that answers for test payments' slips. */
  sandboxSlips: SandboxSlipBank;
  /** Reads slips' mini QR codes (images off the event loop, bounded) and draws them for the test helper. */
  slips: SlipCodec;
  /** A card processor per key mode; null where none is configured (live, by default). */
  cardProcessors: Record<Mode, CardProcessor | null>;
  /** How long a succeeded payment's money stays `pending` (SETTLEMENT_DELAY). */
  settlementDelayMs: number;
  /** Test withdrawals go through the sandbox rail; live ones, and live refunds, through bank bulk-transfer files. */
  payoutRails: { sandbox: AutomatedPayoutRail; bulkTransfer: BulkTransferFile };
  /** http return URLs are allowed only where private webhook URLs are (development, tests). */
  returnUrls: { allowHttp: boolean };
  webhooks: {
    urlGuard: WebhookUrlGuard;
    signer: WebhookSigner;
    sender: WebhookSender;
    queue: DeliveryQueue;
    /** Waits after each failed attempt (WEBHOOK_RETRY_SCHEDULE). */
    retryScheduleMs: readonly number[];
    timeoutMs: number;
    /** A claimed delivery is leased for twice the time-out plus this (WEBHOOK_LEASE_MARGIN_MS): a dispatcher that died
     * mid-send leaves it to another once the lease ends. */
    leaseMarginMs: number;
  };
  /** Passwords, second factors and the random secrets of the dashboard's accounts. */
  accounts: AccountSecrets;
  /** The operator as the seller on tax invoices (OPERATOR_NAME, ...); null: none can be issued. */
  operator: TaxParty | null;
  /** Renders tax invoices as PDF when they are issued. */
  taxInvoicePdf: TaxInvoiceRenderer;
  /** Renders monthly statements as PDF for the dashboard's download. */
  statementPdf: StatementRenderer;
  /** Counters for /metrics (silent unless METRICS or METRICS_PORT is set). */
  metrics: OperationalMetrics;
}
