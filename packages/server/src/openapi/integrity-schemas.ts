/** The schemas of capture integrity: the page's claim in a creation, the nonce it is issued, and what the backend sees (docs/backend-api.md#capture-integrity). */
import {
  ATTESTATION_PROBLEMS,
  ATTESTATION_STATES,
  CAPTURE_INTEGRITY_LIMITS,
  IMAGE_ROLES,
  INTEGRITY_SIGNALS,
  LIVENESS_PROMPTS,
  LIVENESS_RESULTS,
  LIVENESS_UNAVAILABLE_REASONS,
} from '@onboarding-kit/contract';
import { dateTime, object, ref, string, type Json } from './kit.js';

const { keyframesMax, keyframeMaxBytes, signalsMax, signalValueMaxChars } = CAPTURE_INTEGRITY_LIMITS;
const sha256 = string({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256, lowercase hex.' });
const item = string({
  pattern: `^(${IMAGE_ROLES.join('|')}|keyframe-[1-${keyframesMax}])$`,
  description: 'An image role, or `keyframe-N` for the challenge keyframe N.',
});
const list = (items: Json, maxItems: number, description?: string): Json => ({
  type: 'array',
  maxItems,
  items,
  ...(description && { description }),
});

export const INTEGRITY_SCHEMAS: Record<string, Json> = {
  LivenessReport: object(
    {
      result: string({ enum: [...LIVENESS_RESULTS] }),
      prompts: list(
        object({ prompt: string({ enum: [...LIVENESS_PROMPTS] }), met: { type: 'boolean' } }, ['prompt', 'met']),
        LIVENESS_PROMPTS.length,
      ),
      reason: string({ enum: [...LIVENESS_UNAVAILABLE_REASONS], description: 'Only with `unavailable`: why the challenge did not run.' }),
    },
    ['result', 'prompts'],
    { description: "The page's claim about the liveness challenge; never checked by the companion." },
  ),
  IntegritySignal: object(
    {
      name: string({ enum: [...INTEGRITY_SIGNALS], description: 'What each does and does not prove: docs/page-api.md#injection-signals.' }),
      role: string({ enum: [...IMAGE_ROLES] }),
      value: {
        oneOf: [string({ maxLength: signalValueMaxChars }), { type: 'number' }, { type: 'boolean' }],
        description: 'What was measured.',
      },
    },
    ['name'],
  ),
  CaptureIntegrityClaim: object(
    {
      liveness: ref('LivenessReport'),
      keyframes: list(string({ description: `A JPEG in pure base64, at most ${keyframeMaxBytes} bytes decoded.` }), keyframesMax),
      signals: list(ref('IntegritySignal'), signalsMax),
      attestation: object(
        {
          links: list(
            object({ item, nonce: string({ pattern: '^[A-Za-z0-9_-]{16,128}$' }), sha256 }, ['item', 'nonce', 'sha256']),
            IMAGE_ROLES.length + keyframesMax,
          ),
          head: sha256,
        },
        ['links', 'head'],
      ),
    },
    [],
    { description: 'A record, never a gate: only a malformed member refuses the creation (docs/page-api.md#capture-integrity).' },
  ),
  CaptureNonceRequest: object({ role: string({ enum: [...IMAGE_ROLES] }) }, ['role']),
  CaptureNonce: object(
    {
      nonce: string({ pattern: '^[A-Za-z0-9_-]{43}$', description: '32 random bytes, base64url.' }),
      role: string({ enum: [...IMAGE_ROLES] }),
      expiresAt: dateTime(),
    },
    ['nonce', 'role', 'expiresAt'],
  ),
  SessionIntegrity: object(
    {
      liveness: ref('LivenessReport'),
      signals: { type: 'array', items: ref('IntegritySignal') },
      attestation: object(
        {
          state: string({ enum: [...ATTESTATION_STATES] }),
          problems: { type: 'array', items: object({ problem: string({ enum: [...ATTESTATION_PROBLEMS] }), item }, ['problem']) },
          hashes: {
            type: 'array',
            items: object({ item, sha256 }, ['item', 'sha256']),
            description: 'As the companion computed them of the bytes it received.',
          },
        },
        ['state', 'problems', 'hashes'],
      ),
      keyframes: { type: 'integer', minimum: 0, maximum: keyframesMax, description: 'How many keyframes the evidence archive holds.' },
    },
    ['liveness', 'signals', 'attestation', 'keyframes'],
    { description: 'docs/backend-api.md#capture-integrity' },
  ),
};
