import type { RequestOptions, RequestSender } from '../http.js';
import { PageIterable, pageOf } from '../pagination.js';
import type { Transaction, TransactionListParams, components } from '../types.js';

export class Transactions {
  constructor(private readonly sender: RequestSender) {}

  /** The ledger, newest first: `for await` over every transaction, or `.page()` for one page with `total`. */
  list(params: TransactionListParams = {}, options?: RequestOptions): PageIterable<Transaction> {
    const { limit, offset, ...filters } = params;
    return new PageIterable(
      async (page) => {
        const body = await this.sender.request<components['schemas']['TransactionList']>({
          method: 'GET',
          path: 'transactions',
          query: { ...filters, ...page },
          options,
        });
        return pageOf(body.transactions, body);
      },
      (transaction) => transaction.transaction_id,
      { limit, offset },
    );
  }
}
