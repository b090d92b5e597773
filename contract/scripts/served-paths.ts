// Writes the served-paths contract: every operation of openapi.yaml under each base path its `servers` give
// (root, path item or operation), and `servers` holding only origins. Prism, Dredd, Schemathesis and
// swagger-mock-validator ignore the path of a server URL; this file spells out the paths the service answers.
// Run by `npm run generate -w contract`; the output is git-ignored and never edited by hand.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

type Json = Record<string, unknown>;
export interface ServerObject extends Json {
  url: string;
}
type PathItem = Json & { servers?: ServerObject[] };
export interface OpenApiDocument extends Json {
  servers?: ServerObject[];
  paths?: Record<string, PathItem>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export const contractPath = fileURLToPath(new URL('../openapi.yaml', import.meta.url));
export const servedPathsYamlPath = fileURLToPath(new URL('../src/generated/openapi.served-paths.yaml', import.meta.url));
export const servedPathsJsonPath = fileURLToPath(new URL('../src/generated/openapi.served-paths.json', import.meta.url));

const GENERATED_NOTE =
  'This is the served-paths form of the contract, generated from openapi.yaml: every path is written under the ' +
  'base it is served at, and `servers` hold only the origin.\n\n';

/** `http://host:3000/Thai/v1/` -> origin `http://host:3000` and base `/Thai/v1`; `/v1` -> origin `/` and base `/v1`. */
export function splitServerUrl(url: string): { origin: string; base: string } {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*)?(.*)$/.exec(url);
  const origin = match?.[1] ?? '/';
  const base = (match?.[2] ?? '').replace(/\/+$/, '');
  if (base !== '' && !base.startsWith('/')) throw new Error(`server URL '${url}': the path after the origin must start with '/'`);
  return { origin, base };
}

/** A distinct operationId for an alias: `createQrCode` under `/v1` -> `createQrCodeV1`; under the origin's root -> `createQrCodeRoot`. */
const aliasOperationId = (operationId: string, base: string): string =>
  operationId +
  (base
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('') || 'Root');

const originServers = (servers: ServerObject[]): ServerObject[] => {
  const seen = new Map<string, ServerObject>();
  for (const { url, description: _description, ...rest } of servers) {
    const { origin } = splitServerUrl(url);
    if (!seen.has(origin)) seen.set(origin, { ...rest, url: origin });
  }
  return [...seen.values()];
};

const sameServers = (a: ServerObject[], b: ServerObject[]): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The served-paths form of a contract. Each operation appears once per server its nearest `servers` list gives
 * (operation, else path item, else document); the first is canonical and keeps its operationId, the others get
 * a suffix naming their base. A served path whose origins differ from the document's keeps its own origin-only
 * `servers`. Two operations landing on the same path and method is an error, not a silent overwrite.
 */
export function servedPaths(contract: OpenApiDocument): OpenApiDocument {
  const rootServers = contract.servers?.length ? contract.servers : [{ url: '/' }];
  const documentOrigins = originServers(rootServers);
  const served = new Map<string, { item: PathItem; origins: ServerObject[]; baseIndex: number }>();
  const bases: string[] = [];
  const operationIds = new Set<string>();

  for (const [path, { servers: itemServers, ...item }] of Object.entries(contract.paths ?? {})) {
    const shared = Object.fromEntries(Object.entries(item).filter(([key]) => !(METHODS as readonly string[]).includes(key)));
    for (const method of METHODS) {
      const operation = item[method] as (Json & { servers?: ServerObject[]; operationId?: string }) | undefined;
      if (!operation) continue;
      const { servers: operationServers, ...rest } = operation;
      const servers = operationServers?.length ? operationServers : itemServers?.length ? itemServers : rootServers;
      servers.forEach((server, index) => {
        const { base } = splitServerUrl(server.url);
        const servedPath = `${base}${path}`;
        if (!bases.includes(base)) bases.push(base);
        const entry = served.get(servedPath) ?? { item: { ...shared }, origins: [], baseIndex: bases.indexOf(base) };
        if (entry.item[method]) throw new Error(`${method.toUpperCase()} ${servedPath} is served twice (contract path ${path})`);
        const operationId = rest.operationId && index > 0 ? aliasOperationId(rest.operationId, base) : rest.operationId;
        if (operationId !== undefined) {
          if (operationIds.has(operationId)) throw new Error(`operationId ${operationId} would be used twice (${method.toUpperCase()} ${servedPath})`);
          operationIds.add(operationId);
        }
        entry.item[method] = operationId === undefined ? rest : { ...rest, operationId };
        for (const origin of originServers([server])) if (!entry.origins.some((known) => known.url === origin.url)) entry.origins.push(origin);
        served.set(servedPath, entry);
      });
    }
  }

  // Grouped by base (canonical first, in the order the contract names them), each group in the contract's order.
  const ordered = [...served.entries()].sort(([, a], [, b]) => a.baseIndex - b.baseIndex);
  const paths = Object.fromEntries(
    ordered.map(([servedPath, { item, origins }]) => [servedPath, sameServers(origins, documentOrigins) ? item : { ...item, servers: origins }]),
  );
  const info = (contract.info ?? {}) as Json;
  return {
    ...contract,
    info: { ...info, description: GENERATED_NOTE + (typeof info.description === 'string' ? info.description : '') },
    servers: documentOrigins,
    paths,
  };
}

export function writeServedPaths(): void {
  const document = servedPaths(parse(readFileSync(contractPath, 'utf8')) as OpenApiDocument);
  mkdirSync(fileURLToPath(new URL('../src/generated/', import.meta.url)), { recursive: true });
  writeFileSync(
    servedPathsYamlPath,
    `# Generated from openapi.yaml by contract/scripts/served-paths.ts. Do not edit.\n${stringify(document, { lineWidth: 0, aliasDuplicateObjects: false })}`,
  );
  writeFileSync(servedPathsJsonPath, `${JSON.stringify(document, null, 2)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeServedPaths();
  console.log(`contract: wrote ${servedPathsYamlPath} and .json`);
}
