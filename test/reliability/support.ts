import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { endpoints, type EndpointName } from '../../src/domain/endpoints.js';
import { baseEnv, PAY_BIN, readAnswer } from '../e2e/harness.js';
import { freePort } from '../e2e/net.js';
import type { Receiver } from '../support/receiver.js';
import { type AccountState, type Ev, KINDS, type Kind, type Obj, type Receipt } from './invariants.js';

// The reliability suite talks to the sandbox as any client would: over HTTP and WebSocket,
// to the built binary (`pay sandbox start`) as a child process it can SIGKILL.

export interface Auth {
  account: string;
  apiKey: string;
}

export const headersOf = (auth: Auth) => ({ 'pay-account': auth.account, 'pay-api-key': auth.apiKey });

/** A seeded PRNG (mulberry32): the same seed replays the same run. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof rng>;

/** The seed of a run: RELIABILITY_SEED replays one, else a new one (printed by the tests). */
export const runSeed = () => Number(process.env.RELIABILITY_SEED ?? Math.floor(Math.random() * 2 ** 31));

/**
 * `pay sandbox start --port P --db FILE --json` as a child process, on a port chosen once
 * so that clients reconnect to the same address after a restart.
 */
export class SandboxProcess {
  readonly dir = mkdtempSync(join(tmpdir(), 'pay-reliability-'));
  readonly db = join(this.dir, 'sandbox.db');
  readonly auth: Auth = { account: `acct_rel${process.pid}`, apiKey: `sk_test_reliability_${process.pid}_abcdefghijklmnopqrstuvwxyz` };
  port = 0;
  private child: ResultPromise | undefined;
  /** Resolves once the current process answers; replaced at each restart. */
  private readyPromise: Promise<void> = Promise.resolve();

  constructor(private readonly options: { clock: string; env?: Record<string, string> }) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    const env = baseEnv(join(this.dir, 'config'), {
      PAY_SANDBOX_ACCOUNT: this.auth.account,
      PAY_SANDBOX_API_KEY: this.auth.apiKey,
      ...this.options.env,
    });
    const args = [PAY_BIN, 'sandbox', 'start', '--port', String(this.port), '--db', this.db, '--clock', this.options.clock, '--json'];
    const child = execa(process.execPath, args, { env, extendEnv: false, reject: false, buffer: false, stdin: 'ignore' });
    this.child = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    this.readyPromise = new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve();
      });
      void child.then((r) => reject(new Error(`sandbox exited (${r.exitCode}) before ready: ${stderr}`)));
    });
    await this.readyPromise;
  }

  /** SIGKILL: a crash, no cleanup. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    child?.kill('SIGKILL');
    await child;
  }

  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    child?.kill('SIGTERM');
    await child;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An HTTP client that retries what was not answered (connection refused or reset, a
 * timeout, a 5xx) with the same request, and so the same idempotency key, until it is.
 */
export class Api {
  requests = 0;
  /** Requests the server answered (any status). */
  answered = 0;
  retries = 0;
  /** Requests waiting to be retried right now. */
  retrying = 0;

  constructor(
    private readonly baseUrl: () => string,
    private readonly options: { timeoutMs?: number; giveUpMs?: number; /** false: a 5xx is an answer (the hostile input test fails on it). */ retryServerErrors?: boolean } = {},
  ) {}

  async call(auth: Auth | undefined, method: string, path: string, body?: unknown, extra: { key?: string; headers?: Record<string, string>; form?: Record<string, string>; retryOn409?: boolean } = {}): Promise<Answer> {
    const deadline = Date.now() + (this.options.giveUpMs ?? 120_000);
    let wait = 25;
    let counted = false;
    try {
      for (;;) {
        this.requests++;
        const answer = await this.once(auth, method, path, body, extra).catch((error: unknown) => error as Error);
        if (!(answer instanceof Error)) this.answered++;
        const unanswered = answer instanceof Error || (answer.status >= 500 && this.options.retryServerErrors !== false) || (extra.retryOn409 === true && answer.status === 409);
        if (!unanswered) return answer;
        if (Date.now() > deadline) {
          throw new Error(`${method} ${path} unanswered for ${this.options.giveUpMs ?? 120_000}ms: ${answer instanceof Error ? answer.message : `${answer.status} ${JSON.stringify(answer.body)}`}`);
        }
        this.retries++;
        if (!counted) {
          counted = true;
          this.retrying++;
        }
        await sleep(wait * (0.5 + Math.random()));
        wait = Math.min(wait * 2, 400);
      }
    } finally {
      if (counted) this.retrying--;
    }
  }

  private async once(auth: Auth | undefined, method: string, path: string, body: unknown, extra: { key?: string; headers?: Record<string, string>; form?: Record<string, string> }): Promise<Answer> {
    const headers: Record<string, string> = { ...(auth ? headersOf(auth) : {}), ...extra.headers };
    if (extra.key !== undefined) headers['idempotency-key'] = extra.key;
    let payload: string | undefined;
    if (extra.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(extra.form).toString();
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(new URL(path, this.baseUrl()), {
      method,
      headers,
      body: payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
    });
    return readAnswer(res);
  }

  /** Every object of a list endpoint, paging with starting_after (newest first). */
  async all<T = any>(auth: Auth, path: string): Promise<T[]> {
    const items: T[] = [];
    for (let after: string | undefined; ; ) {
      const sep = path.includes('?') ? '&' : '?';
      const page = await this.call(auth, 'GET', `${path}${sep}limit=100${after ? `&starting_after=${after}` : ''}`);
      if (page.status !== 200) throw new Error(`GET ${path} answered ${page.status}: ${JSON.stringify(page.body)}`);
      items.push(...(page.body.data as T[]));
      if (!page.body.has_more) return items;
      after = (page.body.data.at(-1) as { id: string }).id;
    }
  }
}

/** Each kind's list endpoint, from the route table. */
const LISTS: Record<Kind, EndpointName> = {
  customer: 'customers.list',
  payment_method: 'payment_methods.list',
  payment_intent: 'payment_intents.list',
  charge: 'charges.list',
  refund: 'refunds.list',
  subscription: 'subscriptions.list',
  checkout_session: 'checkout_sessions.list',
  webhook_endpoint: 'webhook_endpoints.list',
};

/** An account as the API lists it: every object of every kind, its events, its clock. */
export async function collect(api: Api, auth: Auth): Promise<AccountState> {
  const objects = {} as Record<Kind, Obj[]>;
  for (const kind of KINDS) objects[kind] = await api.all<Obj>(auth, endpoints[LISTS[kind]].path);
  const events = await api.all<Ev>(auth, endpoints['events.list'].path);
  const clock = await api.call(auth, 'GET', endpoints['test_helpers.clock'].path);
  return { account: auth.account, clockNow: clock.body.now as string, objects, events };
}

/** What a Receiver got, as the checker's receipts of one endpoint. */
export const receiptsOf = (endpointId: string, receiver: Receiver): Receipt[] =>
  receiver.received.map((r) => ({ endpointId, webhookId: r.id, verified: r.verified === true, body: r.body }));

/** The collection a route is about: the path segment before `{id}`, else the one after /v1/. */
export function collectionOf(path: string): string {
  const segments = path.split('/');
  const at = segments.indexOf('{id}');
  return at > 0 ? segments[at - 1]! : segments[2]!;
}
