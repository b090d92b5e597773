import { createRequire } from 'node:module';

/**
 * The served-paths contract as the contract package ships it (every path under the base it is served at), for
 * tools that ignore the paths of `servers`: swagger-mock-validator, Prism. Generated: `npm run generate` makes it.
 */
export const SERVED_PATHS_CONTRACT = createRequire(import.meta.url).resolve('@payment-qr/contract/openapi.served-paths.yaml');
