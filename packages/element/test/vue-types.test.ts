/**
 * @onboarding-kit/element/vue augments Vue's GlobalComponents with `<onboarding-flow>`: a
 * fixture that uses it the way a template does compiles against the real `vue` types, with
 * no error and with every deliberate mistake in it refused.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT_TSCONFIG = fileURLToPath(new URL('../../../tsconfig.json', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/vue-usage.ts', import.meta.url));

test('the Vue template types compile, and wrong props or event details are refused', () => {
  const config = ts.getParsedCommandLineOfConfigFile(ROOT_TSCONFIG, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  assert.ok(config);
  const program = ts.createProgram([FIXTURE], { ...config.options, noEmit: true, skipLibCheck: true });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(diagnostics, []);
  // The augmentation was really applied (not an `any` that accepts everything).
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(FIXTURE)!;
  const props = source.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'Props')!;
  const type = checker.getTypeAtLocation(props.name);
  const names = type.getProperties().map((p) => p.name);
  for (const name of ['endpoint', 'documentTypes', 'maxImageBytes', 'onOnboardingComplete', 'onOnboardingCancel'])
    assert.ok(names.includes(name), name);
  assert.equal(type.flags & ts.TypeFlags.Any, 0);
});
