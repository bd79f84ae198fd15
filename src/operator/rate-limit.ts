import { setTimeout as sleep } from 'node:timers/promises';
import type { CallOptions, Client } from '../client/client.js';
import type { EndpointName } from '../domain/endpoints.js';
import { ApiError } from '../domain/errors.js';

/** What the operator engine needs of the client: named calls with idempotency keys. */
export type OperatorClient = Pick<Client, 'call'>;

/** Times a rate-limited request is sent before its 429 is the caller's (the batch then stops, resumable). */
const RATE_LIMIT_TRIES = 6;
const rateLimitWait = (n: number) => Math.min(1000 * 2 ** n, 30_000) * (0.5 + Math.random() / 2);

/** Stopped while waiting (for the service's rate limit, or another batch's claim): an interruption, not an error. */
export class StoppedWaiting extends Error {}

export interface Patience {
  /** How long to wait before sending a rate-limited request again (its nth time). */
  wait?: ((n: number) => number) | undefined;
  /** Aborted: no more waiting; StoppedWaiting is thrown instead. */
  signal?: AbortSignal | undefined;
  /** Called at each 429, before the wait. */
  onLimited?: (() => void) | undefined;
}

/**
 * The client, each request sent again while the service answers 429 beyond the client's
 * own retries: a support batch reads as much as it writes (the list, each item's check,
 * what a retry paid), and any of them may meet the service's limit. A write is sent again
 * with the key its caller gave, so nothing is done twice.
 */
export function patient(client: OperatorClient, patience: Patience = {}): OperatorClient {
  const wait = patience.wait ?? rateLimitWait;
  const { signal } = patience;
  return {
    call: async <T>(name: EndpointName, options?: CallOptions): Promise<T> => {
      for (let n = 0; ; n++) {
        try {
          return await client.call<T>(name, options);
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 429) || n + 1 >= RATE_LIMIT_TRIES) throw error;
          if (signal?.aborted) throw new StoppedWaiting();
          patience.onLimited?.();
          await sleep(wait(n), undefined, signal ? { signal } : {}).catch(() => undefined);
          if (signal?.aborted) throw new StoppedWaiting();
        }
      }
    },
  };
}
