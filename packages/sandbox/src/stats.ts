/** Counters behind `stats()` and `GET /__sandbox/stats`. */
export interface SandboxStats {
  tokensIssued: number;
  requests: Record<string, number>;
  webhooksSent: number;
}

export class StatsCounter {
  requests: Record<string, number> = {};
  webhooksSent = 0;

  count(endpoint: string): void {
    this.requests[endpoint] = (this.requests[endpoint] ?? 0) + 1;
  }
}
