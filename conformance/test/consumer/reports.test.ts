import { NotFoundError } from '@payment-qr/sdk';
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { apiPath, authorized, EXAMPLE, errorLike, id, jsonResponse, listOf, timestamp } from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const { equal, integer, like, regex } = MatchersV3;
const pact = newPact();

/** A party on a tax invoice: the deployment's operator, or the merchant's tax details. */
const partyLike = (name: string, taxId: string) => ({
  name: like(name),
  address: like('1 Silom Road, Bang Rak, Bangkok 10500'),
  tax_id: regex('^\\d{13}$', taxId),
  branch: regex('^\\d{5}$', '00000'),
});

/** The specimen a test merchant gets for 1,500.00 THB of payments at a 3 % fee: fees 4500, VAT 315. */
const specimenLike = () => ({
  tax_invoice_id: id('taxInvoice', EXAMPLE.taxInvoiceId),
  serial: regex('^TEST-TIV-\\d{4}-\\d{6}$', 'TEST-TIV-2026-000001'),
  specimen: equal(true),
  month: regex('^\\d{4}-(0[1-9]|1[0-2])$', EXAMPLE.month),
  issue_date: regex('^\\d{4}-\\d{2}-\\d{2}$', '2026-10-20'),
  seller: partyLike('Payment QR Co., Ltd.', '0105536092641'),
  buyer: partyLike('Conformance merchant', '0994000165510'),
  fees: equal(4500),
  vat: equal(315),
  total: equal(4815),
  currency: equal('THB'),
  created_at: timestamp(),
});

describe('reports.statements.retrieve', () => {
  it("reads a new merchant's statement of the month", async () => {
    await pact
      .addInteraction()
      .given('a new merchant')
      .given('the merchant has a statement', { amount: 150000 })
      .uponReceiving("a request for the month's statement")
      .withRequest('GET', apiPath`/reports/statements/${'month'}`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody({
          month: regex('^\\d{4}-(0[1-9]|1[0-2])$', EXAMPLE.month),
          currency: equal('THB'),
          period_start: timestamp('2026-09-30T17:00:00.000Z'),
          period_end: timestamp('2026-10-31T17:00:00.000Z'),
          opening_balance: equal(0),
          payments: { count: equal(1), gross: equal(150000) },
          fees: equal(0),
          fee_vat: equal(0),
          refunds: { count: equal(0), amount: equal(0) },
          withdrawals: { count: equal(0), amount: equal(0) },
          reversals: { count: equal(0), amount: equal(0) },
          closing_balance: integer(150000),
        }),
      )
      .executeTest(async (mock) => {
        const statement = await sdkAgainst(mock).reports.statements.retrieve(EXAMPLE.month);
        expect(statement).toMatchObject({ month: EXAMPLE.month, payments: { count: 1, gross: 150000 }, closing_balance: 150000 });
        expect(statement.closing_balance - statement.opening_balance).toBe(statement.payments.gross - statement.fees - statement.fee_vat);
      });
  });

  it('refuses a month not written YYYY-MM with 400 invalid_parameters', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request for the statement of a month that is no month')
      .withRequest('GET', '/Thai/v1/reports/statements/2026-13', (request) => request.headers(authorized))
      .willRespondWith(400, (response) => response.headers(jsonResponse).jsonBody(errorLike('invalid_parameters', 'validation_error', 'month')))
      .executeTest(async (mock) => {
        expect(await apiErrorFrom(sdkAgainst(mock).reports.statements.retrieve('2026-13'))).toMatchObject({ status: 400, code: 'invalid_parameters' });
      });
  });
});

describe('reports.settlements.retrieve', () => {
  it("downloads a day's settlement file as CSV", async () => {
    await pact
      .addInteraction()
      .given('a new merchant')
      .given('the merchant has a statement', { amount: 150000 })
      .uponReceiving("a request for today's settlement file")
      .withRequest('GET', apiPath`/reports/settlements/${'date'}`, (request) => request.headers(authorized).query({ format: 'csv' }))
      .willRespondWith(200, (response) => response.headers({ 'Content-Type': regex('^text/csv(;.*)?$', 'text/csv; charset=utf-8') }))
      .executeTest(async (mock) => {
        expect(typeof (await sdkAgainst(mock).reports.settlements.retrieve(EXAMPLE.date))).toBe('string');
      });
  });
});

describe('reports.taxInvoices', () => {
  it('retrieves a tax invoice', async () => {
    await pact
      .addInteraction()
      .given('a new merchant')
      .given('the merchant has a tax invoice', { amount: 150000 })
      .uponReceiving('a request to retrieve a tax invoice')
      .withRequest('GET', apiPath`/reports/tax-invoices/${'tax_invoice_id'}`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(specimenLike()))
      .executeTest(async (mock) => {
        const invoice = await sdkAgainst(mock).reports.taxInvoices.retrieve(EXAMPLE.taxInvoiceId);
        expect(invoice).toMatchObject({ tax_invoice_id: EXAMPLE.taxInvoiceId, specimen: true, fees: 4500, vat: 315, total: 4815 });
      });
  });

  it('lists tax invoices', async () => {
    await pact
      .addInteraction()
      .given('a new merchant')
      .given('the merchant has a tax invoice', { amount: 150000 })
      .uponReceiving('a request for the tax invoices')
      .withRequest('GET', '/Thai/v1/reports/tax-invoices', (request) => request.headers(authorized).query({ limit: '10', offset: '0' }))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(listOf('tax_invoices', specimenLike(), { total: 1, limit: 10, offset: 0 })))
      .executeTest(async (mock) => {
        const page = await sdkAgainst(mock).reports.taxInvoices.list({ limit: 10, offset: 0 }).page();
        expect(page).toMatchObject({ total: 1, hasMore: false });
        expect(page.data[0]).toMatchObject({ specimen: true, total: 4815 });
      });
  });

  it('downloads its PDF', async () => {
    await pact
      .addInteraction()
      .given('a new merchant')
      .given('the merchant has a tax invoice', { amount: 150000 })
      .uponReceiving("a request for a tax invoice's PDF")
      .withRequest('GET', apiPath`/reports/tax-invoices/${'tax_invoice_id'}/pdf`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) =>
        response.headers({
          'Content-Type': regex('^application/pdf(;.*)?$', 'application/pdf'),
          'Content-Disposition': regex('^attachment; filename="TEST-TIV-\\d{4}-\\d{6}\\.pdf"$', 'attachment; filename="TEST-TIV-2026-000001.pdf"'),
        }),
      )
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).reports.taxInvoices.pdf(EXAMPLE.taxInvoiceId)).toBeInstanceOf(Uint8Array);
      });
  });

  it('reports an unknown tax invoice as 404 tax_invoice_not_found', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to retrieve a tax invoice that does not exist')
      .withRequest('GET', '/Thai/v1/reports/tax-invoices/tiv_doesnotexist0000000000000', (request) => request.headers(authorized))
      .willRespondWith(404, (response) => response.headers(jsonResponse).jsonBody(errorLike('tax_invoice_not_found', 'not_found')))
      .executeTest(async (mock) => {
        expect(await apiErrorFrom(sdkAgainst(mock).reports.taxInvoices.retrieve('tiv_doesnotexist0000000000000'))).toBeInstanceOf(NotFoundError);
      });
  });
});
