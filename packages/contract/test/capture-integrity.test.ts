import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { chainHead, sha256Hex, type AttestationLink } from '../src/index.js';

const digest = (...parts: (Buffer | Uint8Array)[]): Buffer => createHash('sha256').update(Buffer.concat(parts)).digest();

describe('capture attestation chain', () => {
  it('hashes bytes as Node does', async () => {
    const bytes = new TextEncoder().encode('a photo');
    assert.equal(await sha256Hex(bytes), createHash('sha256').update(bytes).digest('hex'));
  });

  it('folds each link into the head as the contract spells it', async () => {
    const links: AttestationLink[] = [
      { item: 'documentFront', nonce: 'n1', sha256: 'ab'.repeat(32) },
      { item: 'selfie', nonce: 'n2', sha256: 'cd'.repeat(32) },
    ];
    let head: Buffer = Buffer.alloc(32);
    for (const l of links)
      head = digest(head, Buffer.from(l.item), Buffer.alloc(1), Buffer.from(l.nonce), Buffer.alloc(1), Buffer.from(l.sha256, 'hex'));
    assert.equal(await chainHead(links), head.toString('hex'));
  });

  it('changes when two links swap or a nonce changes', async () => {
    const a = { item: 'documentFront', nonce: 'n1', sha256: 'ab'.repeat(32) } as const;
    const b = { item: 'selfie', nonce: 'n2', sha256: 'cd'.repeat(32) } as const;
    const base = await chainHead([a, b]);
    assert.notEqual(await chainHead([b, a]), base);
    assert.notEqual(await chainHead([a, { ...b, nonce: 'n3' }]), base);
    assert.equal(await chainHead([]), '00'.repeat(32));
  });
});
