/** An oversized creation over a real socket, with the real sandbox behind: 413 JSON, no reset, nothing upstream. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { maxCreateBodyBytes } from '@onboarding-kit/contract';
import { startStack, upstreamRequests } from './helpers/stack.js';

function post(url: string, total: number): Promise<{ status: number; body: string; clientError?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(total) },
    });
    let clientError: string | undefined;
    let answer: { status: number; body: string } | undefined;
    let closed = false;
    const done = () => answer && closed && resolve({ ...answer, ...(clientError && { clientError }) });
    req.on('error', (e) => {
      clientError = (e as NodeJS.ErrnoException).code ?? e.message;
    });
    req.on('close', () => {
      closed = true;
      done();
    });
    req.on('response', (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (d: string) => (body += d))
        .on('end', () => {
          answer = { status: res.statusCode ?? 0, body };
          done();
        })
        .on('error', reject);
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < total && !clientError) {
        const n = Math.min(chunk.length, total - sent);
        sent += n;
        if (!req.write(chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

test('a body of 3x the limit gets the 413 JSON over a real socket, and the sandbox sees nothing', async () => {
  const stack = await startStack();
  try {
    const before = upstreamRequests(stack.sandbox);
    const answer = await post(stack.url, 3 * maxCreateBodyBytes());
    assert.equal(answer.status, 413);
    assert.deepEqual(JSON.parse(answer.body).error.code, 'payload_too_large');
    assert.equal(answer.clientError, undefined);
    assert.equal(upstreamRequests(stack.sandbox), before);
  } finally {
    await stack.close();
  }
});
