/** knex's PostgreSQL dialect, which the multi-host client extends (knex ships no types for the deep import). */
declare module 'knex/lib/dialects/postgres/index.js' {
  import type { Knex } from 'knex';
  const PostgresClient: typeof Knex.Client;
  export default PostgresClient;
}
