/**
 * The way back to the integrator (`returnHref`), which the hosted page and the element turn into
 * a link and a redirect: whatever `returnUrl` reaches a page, only an absolute http(s) URL is ever
 * followed, so a URL that runs script or reads local files never becomes a link.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { returnHref } from '@onboarding-kit/contract';

test('returnHref adds the session and the status to an http(s) returnUrl, keeping its own query', () => {
  assert.equal(
    returnHref('https://back.example/done?from=kyc', 'ses_1', 'APPROVED'),
    'https://back.example/done?from=kyc&session=ses_1&status=APPROVED',
  );
  assert.equal(returnHref('http://127.0.0.1:3000/back', 'ses_1', 'REFUSED'), 'http://127.0.0.1:3000/back?session=ses_1&status=REFUSED');
});

test('returnHref follows no other scheme: javascript:, data:, vbscript:, file: and the rest are null', () => {
  for (const url of [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'blob:https://back.example/0b6a',
    'ftp://back.example/x',
    '//back.example/relative',
    '/relative',
    'not a url',
  ])
    assert.equal(returnHref(url, 'ses_1', 'APPROVED'), null, url);
});
