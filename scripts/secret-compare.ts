/**
 * Secrets are compared in constant time, through one helper per package: the server's
 * `auth/access-key.ts` (`secretEquals`, `keyMatches`) and the sandbox's `auth/safe-equal.ts`
 * (`safeEqual`). An `===` on a secret answers sooner the earlier the first wrong character comes,
 * which lets a caller guess a key one character at a time (docs/upstream-api.md, rule 9). The
 * rules, read from the syntax tree of the shipped code of both packages and of the backend SDK
 * (packages/node, which compares notification MACs with Web Crypto's `verify` and has no helper):
 *
 * - `timingSafeEqual` appears in the helper files only (anywhere else is a second, unreviewed
 *   comparison), and each helper file calls it.
 * - No `==`, `===`, `!=` or `!==` compares a secret-named value (secret, password, signature,
 *   digest, MAC, client credentials, access/admin/webhook/API keys and tokens, stored hashes: see
 *   SECRET_NAME) with anything but a literal, `undefined`, `null` or a `typeof`, case-folded
 *   (`.toLowerCase()`, `.toUpperCase()`) or not, awaited or not.
 * - Inside a helper file nothing is compared with those operators except against such literals:
 *   everything a helper compares is a secret, whatever its parameters are called.
 * - No `.equals(...)`, `Buffer.compare(...)` or `.localeCompare(...)` touches a secret-named value.
 *
 * Usage: scripts/check-secret-compare.ts runs it over the repository (part of `npm run lint`).
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { sourceFiles } from './source-files.js';

const walk = (dir: string) => sourceFiles(dir, (name) => /\.(?:[cm]?ts|tsx)$/.test(name) && !name.endsWith('.d.ts'));

/** The helper files, relative to the repository root. */
export const HELPERS = ['packages/server/src/auth/access-key.ts', 'packages/sandbox/src/auth/safe-equal.ts'];
/** Shipped code that handles secrets. */
export const SCANNED_DIRS = ['packages/server/src', 'packages/sandbox/src', 'packages/node/src'];

/**
 * Names that hold a secret or something derived from one. `tokenOnboarding` (an identifier the
 * page already holds) and a bare `key` (also a documentoscopy case's id) are not secrets.
 */
export const SECRET_NAME =
  /secret|password|passphrase|credential|signature|digest|(?:access|admin|webhook|api|signing|bearer|private)_?(?:key|token)|key_?hash|stored_?hash|^(?:client|hash|expected_?hash|h?macs?)$/i;

export interface SecretCompareProblem {
  file: string;
  line: number;
  problem: string;
}

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
]);

/** Operands that carry no secret: literals, `undefined`, `null`, `typeof x`. */
function isPlainValue(node: ts.Expression): boolean {
  const e = unwrap(node);
  return (
    ts.isLiteralExpression(e) ||
    ts.isNoSubstitutionTemplateLiteral(e) ||
    e.kind === ts.SyntaxKind.NullKeyword ||
    e.kind === ts.SyntaxKind.TrueKeyword ||
    e.kind === ts.SyntaxKind.FalseKeyword ||
    (ts.isIdentifier(e) && e.text === 'undefined') ||
    ts.isTypeOfExpression(e) ||
    (ts.isPrefixUnaryExpression(e) && ts.isNumericLiteral(e.operand))
  );
}

function unwrap(node: ts.Expression): ts.Expression {
  let e = node;
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isAwaitExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isNonNullExpression(e) ||
    ts.isTypeAssertionExpression(e) ||
    ts.isSatisfiesExpression(e)
  )
    e = e.expression;
  return e;
}

/** The names an expression is read through: `a.b.c` -> a, b, c; `f(x)` -> f and x's; `a ?? b` -> both sides'. */
function namesIn(node: ts.Expression): string[] {
  const e = unwrap(node);
  if (ts.isIdentifier(e) || ts.isPrivateIdentifier(e)) return [e.text];
  if (ts.isPropertyAccessExpression(e)) return [...namesIn(e.expression), e.name.text];
  if (ts.isElementAccessExpression(e)) {
    const arg = e.argumentExpression;
    return [...namesIn(e.expression), ...(ts.isStringLiteralLike(arg) ? [arg.text] : namesIn(arg))];
  }
  if (ts.isCallExpression(e)) return [...namesIn(e.expression), ...e.arguments.flatMap((a) => namesIn(a))];
  if (ts.isBinaryExpression(e)) return [...namesIn(e.left), ...namesIn(e.right)];
  if (ts.isConditionalExpression(e)) return [...namesIn(e.whenTrue), ...namesIn(e.whenFalse)];
  if (ts.isTemplateExpression(e)) return e.templateSpans.flatMap((s) => namesIn(s.expression));
  return [];
}

const secretNameIn = (node: ts.Expression): string | undefined => namesIn(node).find((n) => SECRET_NAME.test(n));

/** `x.toLowerCase()` and its kin: a secret compared case-folded is still compared with `===`, and more values pass. */
const CASE_FOLDS = new Set(['toLowerCase', 'toUpperCase', 'toLocaleLowerCase', 'toLocaleUpperCase']);
function caseFolded(node: ts.Expression): string | undefined {
  const e = unwrap(node);
  if (!ts.isCallExpression(e)) return undefined;
  const callee = unwrap(e.expression);
  if (ts.isPropertyAccessExpression(callee) && CASE_FOLDS.has(callee.name.text)) return callee.name.text;
  return caseFolded(callee);
}

/** Problems of one source file; `relPath` decides whether it is a helper. */
export function secretCompareProblemsIn(relPath: string, text: string): SecretCompareProblem[] {
  const helper = HELPERS.includes(relPath);
  const source = ts.createSourceFile(relPath, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const problems: SecretCompareProblem[] = [];
  const report = (node: ts.Node, problem: string) =>
    problems.push({ file: relPath, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, problem });
  let callsTimingSafeEqual = false;

  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === 'timingSafeEqual') {
      if (!helper) report(node, `uses timingSafeEqual outside the helpers (${HELPERS.join(', ')}): compare secrets through them`);
      else if (ts.isCallExpression(node.parent) && node.parent.expression === node) callsTimingSafeEqual = true;
    }
    if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
      const { left, right } = node;
      if (!isPlainValue(left) && !isPlainValue(right)) {
        const name = secretNameIn(left) ?? secretNameIn(right);
        if (helper) report(node, `compares with ${node.operatorToken.getText(source)} inside a secret helper: use timingSafeEqual`);
        else if (name) {
          const folded = caseFolded(left) ?? caseFolded(right);
          const how = folded ? ` case-folded (.${folded}())` : '';
          report(
            node,
            `compares the secret-named "${name}"${how} with ${node.operatorToken.getText(source)}: use the constant-time helper`,
          );
        }
      }
    }
    if (ts.isCallExpression(node)) {
      const callee = unwrap(node.expression);
      const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      const isBufferCompare =
        method === 'compare' &&
        ts.isPropertyAccessExpression(callee) &&
        ts.isIdentifier(callee.expression) &&
        callee.expression.text === 'Buffer';
      if (method === 'equals' || method === 'localeCompare' || isBufferCompare) {
        const operands = [...(ts.isPropertyAccessExpression(callee) && !isBufferCompare ? [callee.expression] : []), ...node.arguments];
        const name = operands.map(secretNameIn).find(Boolean);
        if (name || helper)
          report(node, `compares ${name ? `the secret-named "${name}" ` : ''}with .${method}(): use the constant-time helper`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (helper && !callsTimingSafeEqual)
    problems.push({ file: relPath, line: 1, problem: 'a secret helper must compare with timingSafeEqual' });
  return problems;
}

/** Every problem under `root`, plus one for a helper file that is missing. */
export function secretCompareProblems(root: string): SecretCompareProblem[] {
  const problems: SecretCompareProblem[] = [];
  const seen = new Set<string>();
  for (const dir of SCANNED_DIRS) {
    for (const file of walk(join(root, dir))) {
      const relPath = relative(root, file).split(sep).join('/');
      seen.add(relPath);
      problems.push(...secretCompareProblemsIn(relPath, readFileSync(file, 'utf8')));
    }
  }
  for (const helper of HELPERS) if (!seen.has(helper)) problems.push({ file: helper, line: 1, problem: 'the secret helper is missing' });
  return problems;
}
