import type { Knex } from 'knex';

/**
 * v1.2, reports and tax invoices: the merchant's tax details, tax invoices for fees (frozen once issued: their fields
 * and their PDF's bytes), and one counter per invoice sequence and year, locked by the issuing transaction so that
 * numbers run without gaps or duplicates whatever number of issuers run at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE merchant_tax_details (
      merchant_id text PRIMARY KEY REFERENCES merchants(id),
      tax_id text NOT NULL, address text NOT NULL, branch text NOT NULL, updated_at timestamptz NOT NULL)`);
  await knex.raw(`CREATE TABLE tax_invoice_counters (
      prefix text NOT NULL, year integer NOT NULL, last_number bigint NOT NULL CHECK (last_number >= 0),
      PRIMARY KEY (prefix, year))`);
  await knex.raw(`CREATE TABLE tax_invoices (
      id text PRIMARY KEY, merchant_id text NOT NULL REFERENCES merchants(id),
      serial text NOT NULL UNIQUE, specimen boolean NOT NULL, month text NOT NULL, issue_date text NOT NULL,
      seller_name text NOT NULL, seller_address text NOT NULL, seller_tax_id text NOT NULL, seller_branch text NOT NULL,
      buyer_name text NOT NULL, buyer_address text NOT NULL, buyer_tax_id text NOT NULL, buyer_branch text NOT NULL,
      fees bigint NOT NULL CHECK (fees > 0), vat bigint NOT NULL, total bigint NOT NULL, currency text NOT NULL,
      pdf bytea, created_at timestamptz NOT NULL,
      UNIQUE (merchant_id, month))`);
  await knex.raw('CREATE INDEX tax_invoices_by_merchant ON tax_invoices (merchant_id, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX tax_invoices_without_pdf ON tax_invoices (created_at) WHERE pdf IS NULL');
  // Issued means frozen: nothing changes but the PDF, kept once; nothing is deleted.
  await knex.raw(`
      CREATE FUNCTION tax_invoices_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN RAISE EXCEPTION 'an issued tax invoice is never deleted'; END IF;
        IF OLD.pdf IS NOT NULL OR (to_jsonb(NEW) - 'pdf') <> (to_jsonb(OLD) - 'pdf') THEN
          RAISE EXCEPTION 'an issued tax invoice never changes';
        END IF;
        RETURN NEW;
      END $$`);
  await knex.raw(`CREATE TRIGGER tax_invoices_frozen BEFORE UPDATE OR DELETE ON tax_invoices
      FOR EACH ROW EXECUTE FUNCTION tax_invoices_frozen()`);
  // Which merchants owe an invoice for a month: the entries with fees, by time across merchants.
  await knex.raw('CREATE INDEX balance_transactions_with_fees ON balance_transactions (created_at) WHERE fee > 0');
}
