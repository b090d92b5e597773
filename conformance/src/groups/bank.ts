import { asMerchant } from '../http.js';
import { contractProblems } from '../contract-check.js';
import { operation } from '../contract.js';
import { mustAnswer, mustEqual, mustHaveNoProblems, type Group, type Kit } from '../check.js';

const confirmBankPayment = operation('confirmBankPayment');

/** The bank's confirmation callback of a BANK=scb service: a live payment paid at the bank, confirmed as documented. */
export const bankGroup: Group = {
  name: 'bank',
  title: 'the bank confirmation callback',
  checks(kit: Kit) {
    return [
      {
        name: 'confirmBankPayment answers only as documented: 503 for an unlisted transaction, 200 received, 200 again',
        requires: ['state', 'bank', 'operator'],
        needs: { bank: 'the bank simulator of a BANK=scb service, to list the transactions it confirms', operator: 'a live merchant (the operator makes it)' },
        async run() {
          const bank = kit.target.bank!;
          const { apiKey } = await kit.target.operator!.newMerchant({ live: true });
          const api = asMerchant(kit.send, apiKey);
          const qr = await api('POST', '/Thai/v1/qr-codes', { body: { amount: 15000, currency: 'THB' } });
          mustAnswer('createQrCode', qr, 200);
          const { transaction } = bank.pay((qr.json as { qr_data: string }).qr_data);
          const { reverseFlag: _reversed, ...confirmation } = transaction;

          const unlisted = await kit.send('POST', bank.callbackPath, { body: { ...confirmation, transactionId: 'NOT-LISTED' } });
          mustAnswer('confirmBankPayment', unlisted, 503);
          mustHaveNoProblems(contractProblems(confirmBankPayment, unlisted), unlisted);

          for (let i = 0; i < 2; i++) {
            const received = await kit.send('POST', bank.callbackPath, { body: confirmation });
            mustAnswer('confirmBankPayment', received, 200);
            mustEqual(
              received.json,
              { resCode: '00', resDesc: 'success', transactionId: transaction.transactionId },
              'confirmBankPayment: the answer',
              received,
            );
            mustHaveNoProblems(contractProblems(confirmBankPayment, received), received);
          }
          const payment = await api('GET', `/Thai/v1/payments/${(qr.json as { payment_id: string }).payment_id}`);
          mustEqual((payment.json as { status: string }).status, 'succeeded', 'retrievePayment: status after the confirmation', payment);
        },
      },
    ];
  },
};
