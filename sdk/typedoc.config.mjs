// The SDK reference (docs/), generated from its types by `npm run build -w sdk`.
import { OptionDefaults } from 'typedoc';

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  entryPoints: ['src/index.ts'],
  tsconfig: 'tsconfig.build.json',
  out: 'docs',
  name: '@payment-qr/sdk',
  readme: 'none',
  excludePrivate: true,
  excludeInternal: true,
  // The wire types come from openapi-typescript, whose comments use @description and @constant.
  blockTags: [...OptionDefaults.blockTags, '@description', '@constant'],
  // Helper types the public ones refer to (Schemas, QueryOf, ...) are not exported on purpose.
  validation: { notExported: false },
  // No source links: they need a hosted git remote, and a clone (CI's) may have none or a local one.
  disableSources: true,
  treatWarningsAsErrors: true,
};
