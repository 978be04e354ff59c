/**
 * A fresh process that logs through the default JSON logger (stdout) and then ends at once, the
 * way given on the command line: `exit` (process.exit in the same turn), `throw` (an uncaught
 * exception), `end` (nothing left to do: the event loop ends). Each line carries a secret, a CPF
 * and an authorization header, which must reach stdout redacted.
 */
import { createJsonLogger, redactingLogger } from '@onboarding-kit/server';

const how = process.argv[2];
const log = redactingLogger(createJsonLogger({ base: { app: 'exit-test' } }), () => ['child-secret-123456']);
for (let i = 0; i < 3; i++)
  log.info(`line ${i} child-secret-123456`, { cpf: '52998224725', note: 'key child-secret-123456', authorization: 'Bearer abc' });
if (how === 'exit') process.exit(0);
if (how === 'throw') throw new Error('ended by an uncaught exception');
