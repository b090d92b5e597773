import type { RequestOptions, RequestSender } from '../http.js';
import { PageIterable, pageOf } from '../pagination.js';
import type { CreateWithdrawalParams, Withdrawal, WithdrawalListParams, components } from '../types.js';

export class Withdrawals {
  constructor(private readonly sender: RequestSender) {}

  /** Pays `amount` satang from the available balance to the payout account the operator set; it starts `pending`. */
  create(params: CreateWithdrawalParams, options?: RequestOptions): Promise<Withdrawal> {
    return this.sender.request<Withdrawal>({ method: 'POST', path: 'withdrawals', body: params, options });
  }

  retrieve(withdrawalId: string, options?: RequestOptions): Promise<Withdrawal> {
    return this.sender.request<Withdrawal>({ method: 'GET', path: `withdrawals/${encodeURIComponent(withdrawalId)}`, options });
  }

  /** Your withdrawals, newest first: `for await` over every one, or `.page()` for one page with `total`. */
  list(params: WithdrawalListParams = {}, options?: RequestOptions): PageIterable<Withdrawal> {
    const { limit, offset, ...filters } = params;
    return new PageIterable(
      async (page) => {
        const body = await this.sender.request<components['schemas']['WithdrawalList']>({
          method: 'GET',
          path: 'withdrawals',
          query: { ...filters, ...page },
          options,
        });
        return pageOf(body.withdrawals, body);
      },
      (withdrawal) => withdrawal.withdrawal_id,
      { limit, offset },
    );
  }
}
