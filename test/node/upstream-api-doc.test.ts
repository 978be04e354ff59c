/**
 * docs/upstream-api.md and the contract's catalog describe the same upstream: every service
 * identifier, its group, its required and optional fields, the result members it lists and its
 * `(+)` mark must agree, so neither can drift without a failing test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SERVICE_CATALOG, SERVICE_IDS, serviceSpec, type ServiceGroup } from '@onboarding-kit/contract';

const doc = readFileSync(new URL('../../docs/upstream-api.md', import.meta.url), 'utf8');

/** The text under a `###` heading, up to the next heading of any level from 2 to 3. */
function section(heading: string): string {
  const start = doc.indexOf(`\n### ${heading}\n`);
  assert.ok(start >= 0, `docs/upstream-api.md has "### ${heading}"`);
  const rest = doc.slice(start + heading.length + 6);
  const end = rest.search(/\n#{2,3} /);
  return end < 0 ? rest : rest.slice(0, end);
}

interface Row {
  id: string;
  cells: string[];
}

/** Table rows whose first cell is one backticked service identifier. */
function rows(text: string): Row[] {
  const out: Row[] = [];
  for (const line of text.split('\n')) {
    const m = /^\| `([A-Za-z_0-9]+)` \|(.*)\|$/.exec(line);
    if (m) out.push({ id: m[1]!, cells: m[2]!.split(' | ').map((c) => c.trim()) });
  }
  return out;
}

const backticked = (cell: string): string[] => [...cell.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)(?:\[\])?`/g)].map((m) => m[1]!);

/** `cpf` R, `birthDate` O, `court` -> required and optional (unmarked counts as optional). */
function requestFields(cell: string): { required: string[]; optional: string[] } {
  const required: string[] = [];
  const optional: string[] = [];
  for (const m of cell.matchAll(/`([A-Za-z0-9]+)`( R\b)?/g)) {
    // `service` goes with every query; the catalog lists only the fields that depend on the service.
    if (m[1] !== 'service') (m[2] ? required : optional).push(m[1]!);
  }
  return { required, optional };
}

const tables: [string, ServiceGroup][] = [
  ['Person services', 'person'],
  ['Image and document services', 'image'],
  ['Company services', 'company'],
];

test('every service of the catalog is documented under its group, and nothing else is', () => {
  const documented = new Map<string, ServiceGroup>();
  for (const [heading, group] of tables) for (const r of rows(section(heading))) documented.set(r.id, group);
  const identifierOnly = section('Services known by identifier only').split('\n\n')[1]!;
  for (const id of backticked(identifierOnly)) documented.set(id, 'identifier-only');

  for (const id of SERVICE_IDS) assert.equal(documented.get(id), serviceSpec(id).group, `${id} is documented as ${serviceSpec(id).group}`);
  for (const id of documented.keys()) assert.ok(SERVICE_IDS.includes(id as never), `${id} is in the catalog`);
  assert.equal(documented.get('SEVICE_ONLINE_BETTING_PROPENSITY'), 'person');
  assert.equal(documented.has('SERVICE_ONLINE_BETTING_PROPENSITY'), false);
});

test('documented request marks, result members and (+) marks match the catalog', () => {
  for (const [heading, group] of tables) {
    for (const { id, cells } of rows(section(heading))) {
      const spec = serviceSpec(id as keyof typeof SERVICE_CATALOG);
      const resultCell = cells[cells.length - 1]!;
      if (group === 'company') {
        assert.deepEqual([...spec.required], ['cnpj'], id);
      } else {
        const fields = requestFields(cells[0]!);
        assert.deepEqual(fields.required, [...spec.required], `${id}: required fields`);
        assert.deepEqual(fields.optional, [...spec.optional], `${id}: optional fields`);
      }
      const listed = backticked(resultCell);
      for (const member of spec.result) assert.ok(listed.includes(member), `${id}: result member ${member} is documented`);
      assert.equal(resultCell.includes('(+)'), spec.resultPartial, `${id}: (+) mark`);
    }
  }
});

test('the numbered rules 1 to 9 are there to be cited', () => {
  const rules = doc.slice(doc.indexOf('\n## Rules the kit honours\n'));
  for (let n = 1; n <= 9; n++) assert.match(rules, new RegExp(`\\n${n}\\. \\*\\*`), `rule ${n}`);
  assert.doesNotMatch(rules, /\n10\. /);
});
