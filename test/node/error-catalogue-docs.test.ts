/**
 * docs/page-api.md and docs/backend-api.md against the contract's error catalogue (`API_ERRORS`):
 * the error tables list each of their codes with exactly the catalogue's statuses, and every
 * "<status> `code`" the docs write elsewhere is a status the catalogue gives that code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { API_ERRORS, isApiErrorCode, isApiErrorStatus, type ApiErrorCode, type ApiErrorEntry } from '@onboarding-kit/contract';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

interface Mention {
  status: number;
  code: string;
  line: number;
}

/** Rows of the error tables: `| status | `code` [/ `code`] | when |`. */
export function tableRows(doc: string): Mention[] {
  const out: Mention[] = [];
  doc.split('\n').forEach((text, i) => {
    const row = /^\| (\d{3}) \| ((?:`[a-z_]+`(?: \/ )?)+) \|/.exec(text);
    if (row) for (const [, code] of row[2]!.matchAll(/`([a-z_]+)`/g)) out.push({ status: Number(row[1]), code: code!, line: i + 1 });
  });
  return out;
}

/** "400 `invalid_field`", "409 `a` / `b`" and "`400 invalid_cpf`" in the prose (table rows left out). */
export function proseMentions(doc: string): Mention[] {
  const out: Mention[] = [];
  doc.split('\n').forEach((text, i) => {
    if (text.startsWith('|')) return;
    for (const m of text.matchAll(/\b([45]\d\d) ((?:`[a-z_]+`(?: \/ )?)+)/g)) {
      for (const [, code] of m[2]!.matchAll(/`([a-z_]+)`/g)) out.push({ status: Number(m[1]), code: code!, line: i + 1 });
    }
    for (const m of text.matchAll(/`([45]\d\d) ([a-z_]+)`/g)) out.push({ status: Number(m[1]), code: m[2]!, line: i + 1 });
  });
  return out;
}

const statusesOf = (code: ApiErrorCode) => {
  const entry: ApiErrorEntry = API_ERRORS[code];
  return [entry.status, ...(entry.otherStatuses ?? [])].sort();
};

test('the readers find table rows and prose mentions, and nothing else', () => {
  const doc = [
    '| status | `code` | when |',
    '|---|---|---|',
    '| 400 | `invalid_cpf` / `invalid_cnpj` | check digits |',
    '| 404 | `not_found` | no such route |',
    'Refused with 409 `session_handed_off` once, 400 `missing_tax_id` / `invalid_field` (`documentKey`),',
    'digits (`400 invalid_cpf`), a limit of 200 (default 50) and `HTTP 500`.',
  ].join('\n');
  assert.deepEqual(
    tableRows(doc).map((m) => `${m.status} ${m.code}`),
    ['400 invalid_cpf', '400 invalid_cnpj', '404 not_found'],
  );
  assert.deepEqual(
    proseMentions(doc).map((m) => `${m.status} ${m.code}`),
    ['409 session_handed_off', '400 missing_tax_id', '400 invalid_field', '400 invalid_cpf'],
  );
});

test("docs/page-api.md: its error tables list each code with exactly the catalogue's statuses", () => {
  const rows = tableRows(read('docs/page-api.md'));
  assert.ok(rows.length >= 25, `only ${rows.length} error table rows read`);
  const listed = new Map<string, number[]>();
  for (const row of rows) {
    assert.ok(isApiErrorCode(row.code), `docs/page-api.md:${row.line}: \`${row.code}\` is not in the error catalogue`);
    listed.set(row.code, [...new Set([...(listed.get(row.code) ?? []), row.status])].sort());
  }
  for (const [code, statuses] of listed) {
    assert.deepEqual(statuses, statusesOf(code as ApiErrorCode), `docs/page-api.md lists \`${code}\` with ${statuses.join(', ')}`);
  }
});

for (const name of ['docs/page-api.md', 'docs/backend-api.md']) {
  test(`${name}: every status written beside a code is one the catalogue gives it`, () => {
    const mentions = proseMentions(read(name));
    assert.ok(mentions.length >= 6, `only ${mentions.length} mentions read`);
    for (const { status, code, line } of mentions) {
      assert.ok(isApiErrorCode(code), `${name}:${line}: \`${code}\` is not in the error catalogue`);
      assert.ok(
        isApiErrorStatus(code, status),
        `${name}:${line}: ${status} \`${code}\`, but the catalogue answers it with ${statusesOf(code).join(', ')}`,
      );
    }
  });
}
