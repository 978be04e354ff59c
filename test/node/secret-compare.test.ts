/**
 * The constant-time lint (scripts/secret-compare.ts): the repository passes it, and each planted
 * way of comparing a secret with `===` (or of a second `timingSafeEqual` outside the helpers) is
 * reported, while the ordinary comparisons around secrets (typeof checks, presence checks,
 * identifiers that merely sit next to a token) are not.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { HELPERS, secretCompareProblems, secretCompareProblemsIn } from '../../scripts/secret-compare.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const [SERVER_HELPER, SANDBOX_HELPER] = HELPERS as [string, string];
const SERVER_FILE = 'packages/server/src/webhooks/webhook-routes.ts';
const SANDBOX_FILE = 'packages/sandbox/src/routes/token.ts';
const SIGNATURE_FILE = 'packages/server/src/notifications/signature.ts';

test('the repository compares every secret through its helper', () => {
  assert.deepEqual(secretCompareProblems(ROOT), []);
});

test('every planted non-constant-time comparison is reported', () => {
  const planted: [string, string][] = [
    // The helper itself, its digests compared with ===.
    [
      SERVER_HELPER,
      "import { timingSafeEqual } from 'node:crypto';\nexport function keyMatches(presented, storedHash) {\n  return hashSecret(presented ?? '') === (storedHash ?? DUMMY_HASH);\n}\n",
    ],
    [SERVER_HELPER, 'export function secretEquals(presented, expected) {\n  return timingSafeEqual(a, b) && presented === expected;\n}\n'],
    [SANDBOX_HELPER, 'export function safeEqual(a, b) {\n  return Buffer.from(a).equals(Buffer.from(b));\n}\n'],
    // Routes that skip the helper.
    [SERVER_FILE, "if (c.req.header('id-service-token') !== deps.webhookKey) throw unauthorized();\n"],
    ['packages/server/src/admin/auth.ts', 'if (bearer(header) != adminKey) throw unauthorized();\n'],
    ['packages/server/src/onboardings/onboarding-routes.ts', 'if (hashSecret(presented) !== record?.accessKeyHash) throw notFound();\n'],
    [SANDBOX_FILE, 'const secretOk = body.secret === deps.options.secret;\n'],
    [SANDBOX_FILE, 'const clientOk = deps.options.client == body.client;\n'],
    ['packages/sandbox/src/auth/jwt.ts', 'if (signature !== expected) return null;\n'],
    ['packages/sandbox/src/auth/jwt.ts', 'if (Buffer.compare(given, signatureBytes) !== 0) return null;\n'],
    [SERVER_FILE, "if (`${given}` === options['secret']) ok();\n"],
    // A second timingSafeEqual, outside the helpers.
    [SERVER_FILE, "import { timingSafeEqual } from 'node:crypto';\nconst ok = timingSafeEqual(a, b);\n"],
    // Case-folded comparisons of a MAC or a secret, the secret reached through an await.
    [
      SIGNATURE_FILE,
      "for (const mac of parsed.v1) if (toHex(await subtle().sign('HMAC', signKey, message)) === mac.toLowerCase()) ok = true;\n",
    ],
    [
      SIGNATURE_FILE,
      "if (toHex(await subtle().sign('HMAC', await hmacKey(secret, 'sign'), message)) === given.toLowerCase()) ok = true;\n",
    ],
    [SERVER_FILE, 'if (presentedSignature.toUpperCase() !== expected.toUpperCase()) throw unauthorized();\n'],
  ];
  for (const [file, text] of planted) {
    const problems = secretCompareProblemsIn(file, text);
    assert.ok(problems.length > 0, `not reported in ${file}:\n${text}`);
  }
  // A case-folded comparison is named as one.
  assert.match(
    secretCompareProblemsIn(SIGNATURE_FILE, 'if (computed === mac.toLowerCase()) ok = true;\n')[0]?.problem ?? '',
    /secret-named "mac" case-folded \(\.toLowerCase\(\)\) with ===/,
  );
  // The line of the finding is the comparison's.
  assert.deepEqual(
    secretCompareProblemsIn(SANDBOX_FILE, '\n\nconst secretOk = body.secret === deps.options.secret;\n').map((p) => p.line),
    [3],
  );
});

test('comparisons that involve no secret value are left alone', () => {
  const clean: [string, string][] = [
    [SANDBOX_FILE, "if (!body || typeof body.client !== 'string' || typeof body.secret !== 'string') return bad();\n"],
    ['packages/server/src/evidence/archive.ts', 'if (options.password !== undefined) check(options.password);\n'],
    [
      'packages/server/src/relay/poller.ts',
      'if (this.tracked.get(token) !== entry) return;\nif (record.status === "IN_PROCESS") poll();\n',
    ],
    ['packages/server/src/upstream/access-tokens.ts', 'if (this.current && this.current.value !== stale) return this.current.value;\n'],
    ['packages/sandbox/src/query.ts', "const same = hashOf('image1') === hashOf('image2');\n"],
    [
      'packages/server/src/transport/request-header.ts',
      "if (name.toLowerCase() === wanted.toLowerCase()) return value;\nif (scheme.toLowerCase() === 'bearer') ok();\n",
    ],
    [
      SERVER_HELPER,
      "import { timingSafeEqual } from 'node:crypto';\nexport function secretEquals(presented, expected) {\n  return timingSafeEqual(a, b) && presented !== undefined;\n}\n",
    ],
  ];
  for (const [file, text] of clean) assert.deepEqual(secretCompareProblemsIn(file, text), [], `${file}:\n${text}`);
});
