import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidCpf } from '@onboarding-kit/contract';
test('smoke', () => assert.equal(isValidCpf('529.982.247-25'), true));
