/** What the routes share: one object per sandbox, handed to each sub-app factory. */
import type { TokenIssuer } from './auth/tokens.js';
import type { DocumentoscopyCases } from './documentoscopy.js';
import type { FaultState } from './faults.js';
import type { Onboardings } from './onboardings.js';
import type { ResolvedOptions } from './options.js';
import type { Product } from './product.js';
import type { StatsCounter } from './stats.js';
import type { WebhookSender } from './webhooks.js';

export interface SandboxDeps {
  options: ResolvedOptions;
  faults: FaultState;
  tokens: TokenIssuer;
  product: Product;
  onboardings: Onboardings;
  documentoscopy: DocumentoscopyCases;
  webhooks: WebhookSender;
  stats: StatsCounter;
}

/** Hono environment of every sandbox route: the bearer middleware records the token's client. */
export type SandboxEnv = { Variables: { client: string } };
