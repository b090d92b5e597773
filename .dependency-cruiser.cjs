/** The dependency rule of shared/STYLE.md, checked in `npm run lint`. */

/** An error when a module whose path matches `from` imports what `to` matches. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to });

const nodeBuiltIns = { dependencyTypes: ['core'] };

module.exports = {
  forbidden: [
    forbid('domain-is-pure', 'domain imports nothing of ours but domain', '^server/src/domain/', { path: '^server/src/(?!domain/)|^(contract|sdk)/' }),
    forbid('domain-no-io', 'domain does no I/O: no node built-ins or infrastructure packages', '^server/src/domain/', nodeBuiltIns),
    forbid('ports-see-only-domain', 'ports import domain and nothing else of ours', '^server/src/ports/', {
      path: '^server/src/(?!domain/|ports/)|^(contract|sdk)/',
    }),
    forbid('app-sees-domain-and-ports', 'use cases import domain and ports, never an adapter or an entry point', '^server/src/app/', {
      path: '^server/src/(adapters/|main|worker|cli|config)|^(contract|sdk)/',
    }),
    forbid(
      'adapters-do-not-cross',
      'an adapter never imports another adapter (but the one CSV writer, adapters/csv, every file goes through, and adapters/pages, what the checkout page and the dashboard share: headers, assets, live streams); only the composition root names concrete adapters',
      '^server/src/adapters/([^/]+)/',
      { path: '^server/src/adapters/', pathNot: '^server/src/adapters/($1|csv|pages)/' },
    ),
    forbid('only-http-adapter-sees-contract', "only adapters/http imports the contract's wire types", '^server/src/(?!adapters/http/)', {
      path: '^contract/|@payment-qr/contract',
    }),
    forbid('sdk-never-imports-server', 'the SDK is published on its own: it never imports the server', '^sdk/src/', {
      path: '^server/|@payment-qr/server',
    }),
    forbid('sdk-client-path-is-browser-safe', 'the SDK runs in browsers: no node built-ins', '^sdk/src/', nodeBuiltIns),
    forbid(
      'conformance-kit-is-http-only',
      'the kit checks any deployment over HTTP: it imports nothing of the server (its tests may start one)',
      '^conformance/src/',
      { path: '^(server|sdk|scripts)/|@payment-qr/(server|sdk)' },
    ),
    forbid(
      'migrations-are-frozen',
      'a migration imports nothing of ours: a changed constant must never change what a fresh database gets',
      '^server/src/adapters/postgres/migrations/',
      { path: '^server/src/|^(contract|sdk)/' },
    ),
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: true,
  },
};
