import type { operations } from '@payment-qr/contract';
import parseurl from 'parseurl';
import { DomainError } from '../../domain/errors.js';
import { keyMay, type Permission } from '../../domain/permissions.js';
import type { KnownKey } from './auth.js';
import type { Step } from './steps.js';
import { loadContract, specsByBasePath } from './validation.js';

/**
 * THE map of what a restricted key needs for each operation of the merchant API, by the contract's operationId; both
 * lanes run its step (`requirePermission`, ./api-pipeline.ts), and the hot lane takes only requests it permits. An operation of the
 * contract that takes a key and is missing here stops the server from starting (`operationOfRequest`).
 */
export const permissionOf = {
  createQrCode: 'qr_codes:write',
  listPayments: 'payments:read',
  createCardPayment: 'payments:write',
  retrievePayment: 'payments:read',
  succeedTestPayment: 'payments:write',
  failTestPayment: 'payments:write',
  expireTestPayment: 'payments:write',
  createRefund: 'refunds:write',
  retrieveRefund: 'refunds:read',
  listTransactions: 'transactions:read',
  retrieveBalance: 'balance:read',
  listBalanceTransactions: 'balance:read', // the ledger
  createWithdrawal: 'withdrawals:write',
  listWithdrawals: 'withdrawals:read',
  retrieveWithdrawal: 'withdrawals:read',
  createWebhook: 'webhooks:write',
  listWebhooks: 'webhooks:read',
  retrieveWebhook: 'webhooks:read',
  updateWebhook: 'webhooks:write',
  deleteWebhook: 'webhooks:write',
  retrieveWebhookSecret: 'webhooks:write', // a secret signs deliveries: reading one is as strong as setting one
  listWebhookDeliveries: 'webhooks:read',
  rotateWebhookSecret: 'webhooks:write',
  sendWebhookTest: 'webhooks:write',
  retryWebhookDelivery: 'webhooks:write',
  listEvents: 'events:read',
  retrieveEvent: 'events:read',
  retrieveStatement: 'reports:read',
  retrieveSettlementFile: 'reports:read',
  listTaxInvoices: 'reports:read',
  retrieveTaxInvoice: 'reports:read',
  retrieveTaxInvoicePdf: 'reports:read',
  createTill: 'tills:write',
  listTills: 'tills:read',
  retrieveTill: 'tills:read',
  closeTill: 'tills:write',
  rollTillDisplayUrl: 'tills:write',
  createTestTillPayment: 'payments:write',
  createSlipVerification: 'slips:write',
  retrieveSlipVerification: 'slips:read',
  createTestPaymentSlip: 'payments:write',
} as const satisfies Partial<Record<keyof operations, Permission>>;

export type KeyedOperation = keyof typeof permissionOf;

const isKeyedOperation = (operationId: string): operationId is KeyedOperation => Object.hasOwn(permissionOf, operationId);

/** The 403 for a key that may not call the operation, or null when it may. Unrestricted keys may call every one. */
export function permissionDenied(keyPermissions: readonly Permission[] | null, operationId: string): DomainError | null {
  if (keyPermissions === null) return null;
  const needed: Permission | undefined = isKeyedOperation(operationId) ? permissionOf[operationId] : undefined;
  if (needed !== undefined && keyMay(keyPermissions, needed)) return null;
  return new DomainError(
    'permission_denied',
    needed === undefined
      ? 'This restricted key may not call this operation.'
      : `This key may not do that: it lacks the permission '${needed}' (it holds ${keyPermissions.join(', ')}).`,
  );
}

interface Operation {
  operationId?: string;
  security?: unknown[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `{param}` segments match any one segment; as in Express's routing, case and a trailing slash do not matter. */
const patternOf = (path: string): RegExp =>
  new RegExp(
    `^${path
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}/?$`,
    'i',
  );

/**
 * Finds the operation a request calls from its method and full path, as the contract serves it (HEAD as the GET it
 * stands for); undefined when it calls none (a 404 or 405 follows). Throws when an operation that takes a key has no
 * permission in `permissionOf`, so that none can be added without saying who may call it.
 */
export function operationOfRequest(): (method: string, path: string) => string | undefined {
  const contract = loadContract() as unknown as { security?: unknown[] };
  const routes: { method: string; pattern: RegExp; operationId: string }[] = [];
  for (const { basePath, spec } of specsByBasePath(loadContract())) {
    for (const [template, item] of Object.entries(spec.paths)) {
      for (const method of METHODS) {
        const operation = (item as Record<string, Operation | undefined>)[method];
        if (!operation?.operationId || (operation.security ?? contract.security ?? []).length === 0) continue;
        if (!isKeyedOperation(operation.operationId))
          throw new Error(`${operation.operationId} takes an API key but has no permission in adapters/http/operation-permissions.ts`);
        routes.push({ method: method.toUpperCase(), pattern: patternOf(basePath + template), operationId: operation.operationId });
      }
    }
  }
  return (method, path) => {
    const asked = method === 'HEAD' ? 'GET' : method;
    return routes.find((route) => route.method === asked && route.pattern.test(path))?.operationId;
  };
}

/** The permission step, after the key check and before the body is read; unrestricted keys pass at once. */
export function requirePermission(): Step {
  const operationOf = operationOfRequest();
  return (req, res, next) => {
    const key = res.locals.apiKey as KnownKey;
    if (key.permissions === null) return next();
    const operationId = operationOf(req.method!, parseurl.original(req)?.pathname ?? '/'); // the whole path, also inside a router mounted at a base path;
    const denied = operationId === undefined ? null : permissionDenied(key.permissions, operationId);
    if (denied) throw denied;
    next();
  };
}
