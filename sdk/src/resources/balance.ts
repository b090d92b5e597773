import type { RequestOptions, RequestSender } from '../http.js';
import { PageIterable, pageOf } from '../pagination.js';
import type { Balance as BalanceBody, BalanceTransaction, BalanceTransactionListParams, components } from '../types.js';

export class Balance {
  constructor(private readonly sender: RequestSender) {}

  /** What the service holds for you, in satang: `available` to withdraw, `pending` still in its settlement delay. */
  retrieve(options?: RequestOptions): Promise<BalanceBody> {
    return this.sender.request<BalanceBody>({ method: 'GET', path: 'balance', options });
  }

  /** The ledger behind the balance, newest first: `for await` over every entry, or `.page()` for one page with `total`. */
  listTransactions(params: BalanceTransactionListParams = {}, options?: RequestOptions): PageIterable<BalanceTransaction> {
    const { limit, offset, ...filters } = params;
    return new PageIterable(
      async (page) => {
        const body = await this.sender.request<components['schemas']['BalanceTransactionList']>({
          method: 'GET',
          path: 'balance/transactions',
          query: { ...filters, ...page },
          options,
        });
        return pageOf(body.balance_transactions, body);
      },
      (entry) => entry.balance_transaction_id,
      { limit, offset },
    );
  }
}
