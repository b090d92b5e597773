import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { operatorCli, type OperatorCli } from '../support/operator-cli.js';

const OPERATOR = { OPERATOR_NAME: 'Payment QR Co., Ltd.', OPERATOR_ADDRESS: '1 Silom Road, Bangkok 10500', OPERATOR_TAX_ID: '0105536092641' };

describe('npm run cli -- merchants tax-details / reports issue', { timeout: 180_000 }, () => {
  let cli: OperatorCli;
  let merchantId: string;
  beforeAll(async () => {
    cli = await operatorCli('pqr-cli-reports-');
    merchantId = JSON.parse((await cli.run(['merchants', 'create', '--name', 'Noodle Shop', '--fee-bps', '300', '--json'])).stdout).merchant_id;
  });
  afterAll(() => cli.drop());

  it("records a merchant's tax details, refusing a tax id whose check digit is wrong", async () => {
    const wrong = await cli.exit(['merchants', 'tax-details', '--merchant', merchantId, '--tax-id', '0994000165511', '--address', '99 Sukhumvit Road']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/tax id '0994000165511' must be 13 digits with a valid check digit/);
    const branch = await cli.exit(['merchants', 'tax-details', '--merchant', merchantId, '--tax-id', '0994000165510', '--address', 'x', '--branch', '1']);
    expect(branch.stderr).toMatch(/branch '1' must be 5 digits/);
    const unknown = await cli.exit(['merchants', 'tax-details', '--merchant', 'mch_unknown', '--tax-id', '0994000165510', '--address', '99 Sukhumvit Road']);
    expect(unknown.stderr).toMatch(/no merchant 'mch_unknown'/);
    const set = await cli.run(['merchants', 'tax-details', '--merchant', merchantId, '--tax-id', '0994000165510', '--address', '99 ถนนสุขุมวิท กรุงเทพมหานคร']);
    expect(set.stdout).toContain(`Tax details of ${merchantId} set: tax id 0994000165510, branch 00000.`);
  });

  it("issues a month's tax invoices only with the operator's details, and only for a month that has begun", async () => {
    const withoutOperator = await cli.exit(['reports', 'issue', '--month', '2026-10']);
    expect(withoutOperator.code).not.toBe(0);
    expect(withoutOperator.stderr).toMatch(/OPERATOR_NAME, OPERATOR_ADDRESS and OPERATOR_TAX_ID/);
    const wrongTaxId = await cli.exit(['reports', 'issue', '--month', '2026-10'], { ...OPERATOR, OPERATOR_TAX_ID: '0105536092640' });
    expect(wrongTaxId.stderr).toMatch(/OPERATOR_TAX_ID: '0105536092640' must be a Thai tax id/);
    expect((await cli.exit(['reports', 'issue', '--month', 'october'], OPERATOR)).stderr).toMatch(/must be a calendar month written YYYY-MM/);
    expect((await cli.exit(['reports', 'issue', '--month', '2999-01'], OPERATOR)).stderr).toMatch(/2999-01 has not begun/);
    // No payment, no fee: nothing to invoice.
    expect(JSON.parse((await cli.run(['reports', 'issue', '--month', '2026-10', '--json'], OPERATOR)).stdout)).toEqual({ issued: [], skipped: [] });
  });
});

describe('OPERATOR_* settings', () => {
  it('are all three or none, with a valid tax id and branch; the branch defaults to the head office', () => {
    expect(loadConfig({}).operator).toBeNull();
    expect(loadConfig(OPERATOR).operator).toEqual({
      name: OPERATOR.OPERATOR_NAME,
      address: OPERATOR.OPERATOR_ADDRESS,
      taxId: '0105536092641',
      branch: '00000',
    });
    expect(loadConfig({ ...OPERATOR, OPERATOR_BRANCH: '00012' }).operator?.branch).toBe('00012');
    expect(() => loadConfig({ OPERATOR_NAME: 'Payment QR Co., Ltd.' })).toThrow(/OPERATOR_ADDRESS and OPERATOR_TAX_ID must be set too/);
    expect(() => loadConfig({ ...OPERATOR, OPERATOR_TAX_ID: '010553609264' })).toThrow(/OPERATOR_TAX_ID/);
    expect(() => loadConfig({ ...OPERATOR, OPERATOR_BRANCH: 'head' })).toThrow(/OPERATOR_BRANCH: 'head' must be 5 digits/);
  });
});
