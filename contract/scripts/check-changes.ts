/**
 * `npm run lint -w contract`: compares openapi.yaml with the last release's contract (releases/, newest version) using
 * api-smart-diff, and fails on a breaking change that CHANGELOG.md's section for the coming version does not name.
 * A change is named by the operation it touches (`POST /webhooks`) or the component (`components/schemas/Webhook`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { apiCompare } from 'api-smart-diff';
import { parse } from 'yaml';

const here = (path: string): URL => new URL(`../${path}`, import.meta.url);
const byVersion = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });
const lastRelease = readdirSync(here('releases'))
  .filter((file) => file.endsWith('.yaml'))
  .sort(byVersion)
  .at(-1);
if (!lastRelease) throw new Error('contract/releases/ holds no released contract to compare with');

const before: unknown = parse(readFileSync(here(`releases/${lastRelease}`), 'utf8'));
const after = parse(readFileSync(here('openapi.yaml'), 'utf8')) as { info: { version: string } };
const changelog = readFileSync(here('CHANGELOG.md'), 'utf8');

/** The changelog's section for the contract's own version: from its `## x.y.z` heading to the next heading of that level. */
const section = changelog.split(/^## /m).find((part) => part.startsWith(after.info.version)) ?? '';
if (!section) {
  console.error(`contract/CHANGELOG.md has no section "## ${after.info.version}" (the version in openapi.yaml's info)`);
  process.exit(1);
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
/** What a diff touches, as a changelog names it. */
function subjectOf(path: readonly (string | number)[]): string {
  const [root, first, second] = path.map(String);
  if (root === 'paths' && first) return second && METHODS.has(second) ? `${second.toUpperCase()} ${first}` : first;
  return path.slice(0, 3).join('/');
}

const breaking = apiCompare(before, after).diffs.filter((diff) => diff.type === 'breaking');
const unnamed = new Map<string, string[]>();
for (const diff of breaking) {
  const subject = subjectOf(diff.path);
  if (!section.includes(`\`${subject}\``)) unnamed.set(subject, [...(unnamed.get(subject) ?? []), diff.description ?? diff.path.join('/')]);
}

if (unnamed.size > 0) {
  console.error(`Breaking changes against the released contract ${lastRelease} that CHANGELOG.md's ${after.info.version} section does not name:`);
  for (const [subject, descriptions] of unnamed) console.error(`- \`${subject}\`: ${descriptions.join('; ')}`);
  process.exit(1);
}
console.log(`contract: ${breaking.length} breaking change(s) against ${lastRelease}, each named in CHANGELOG.md`);
