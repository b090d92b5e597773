/** The dependency rule of shared/STYLE.md, checked in `npm run lint`. */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'domain imports nothing of ours but domain',
      severity: 'error',
      from: { path: '^server/src/domain/' },
      to: { path: '^server/src/(?!domain/)|^(contract|sdk)/' },
    },
    {
      name: 'domain-no-io',
      comment: 'domain does no I/O: no node built-ins or infrastructure packages',
      severity: 'error',
      from: { path: '^server/src/domain/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'ports-see-only-domain',
      severity: 'error',
      from: { path: '^server/src/ports/' },
      to: { path: '^server/src/(?!domain/|ports/)|^(contract|sdk)/' },
    },
    {
      name: 'app-sees-domain-and-ports',
      severity: 'error',
      from: { path: '^server/src/app/' },
      to: { path: '^server/src/(adapters/|main|worker|cli|config)|^(contract|sdk)/' },
    },
    {
      name: 'adapters-do-not-cross',
      comment:
        'an adapter never imports another adapter (but the one CSV writer, adapters/csv, every file goes through, and adapters/pages, what the checkout page and the dashboard share: headers, assets, live streams); only the composition root names concrete adapters',
      severity: 'error',
      from: { path: '^server/src/adapters/([^/]+)/' },
      to: { path: '^server/src/adapters/', pathNot: '^server/src/adapters/($1|csv|pages)/' },
    },
    {
      name: 'only-http-adapter-sees-contract',
      severity: 'error',
      from: { path: '^server/src/(?!adapters/http/)' },
      to: { path: '^contract/|@payment-qr/contract' },
    },
    {
      name: 'sdk-never-imports-server',
      severity: 'error',
      from: { path: '^sdk/src/' },
      to: { path: '^server/|@payment-qr/server' },
    },
    {
      name: 'sdk-client-path-is-browser-safe',
      comment: 'the SDK runs in browsers: no node built-ins',
      severity: 'error',
      from: { path: '^sdk/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'conformance-kit-is-http-only',
      comment: 'the kit checks any deployment over HTTP: it imports nothing of the server (its tests may start one)',
      severity: 'error',
      from: { path: '^conformance/src/' },
      to: { path: '^(server|sdk|scripts)/|@payment-qr/(server|sdk)' },
    },
    {
      name: 'migrations-are-frozen',
      comment: 'a migration imports nothing of ours: a changed constant must never change what a fresh database gets',
      severity: 'error',
      from: { path: '^server/src/adapters/postgres/migrations/' },
      to: { path: '^server/src/|^(contract|sdk)/' },
    },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: true,
  },
};
