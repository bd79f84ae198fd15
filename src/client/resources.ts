import { endpoints, type EndpointName } from '../domain/endpoints.js';
import { Client } from './client.js';
import { type Operations, SOCKET_ENDPOINTS } from './operations.js';

export interface RequestOptions {
  /** A write's Idempotency-Key, to replay it deliberately; by default every write gets a fresh one. */
  idempotencyKey?: string;
  /** This request's timeout in milliseconds (0: none), e.g. for a long clock advance. */
  timeoutMs?: number;
}

export interface CreateClientOptions {
  /** Default: `PAY_BASE_URL`. */
  baseUrl?: string;
  /** Default: `PAY_ACCOUNT`. */
  account?: string;
  /** Default: `PAY_API_KEY`. */
  apiKey?: string;
  /** The service's auth header prefix: `<prefix>-account`, `<prefix>-api-key`. Default: pay. */
  headerPrefix?: string;
  /** Retries after the first attempt (network errors, 429, 5xx; writes with their key). Default: 2. */
  retries?: number;
  /** Per request, in milliseconds. Default: 30000. */
  timeoutMs?: number;
}

type Name = keyof Operations;
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type ResourceOf<N> = N extends `${infer R}.${string}` ? R : never;
type IdArg<N extends Name> = (typeof endpoints)[N]['path'] extends `${string}{id}${string}` ? [id: string] : [];
type InputOf<N extends Name> = Operations[N] extends { body: infer B } ? B : Operations[N] extends { query: infer Q } ? Q : Record<string, never>;
type InputArg<I> = {} extends I ? [input?: I] : [input: I];

/** One endpoint as a method: `(id?, body or query, options?)`, answering the endpoint's type. */
export type Method<N extends Name> = (...args: [...IdArg<N>, ...InputArg<InputOf<N>>, options?: RequestOptions]) => Promise<Operations[N]['result']>;

/**
 * The typed client: one property a resource, one method an endpoint, named after the
 * endpoint table (`payment_intents.list` is `client.paymentIntents.list`).
 */
export type PayClient = {
  readonly [R in ResourceOf<Name> as Camel<R>]: { readonly [N in Name as N extends `${R}.${infer V}` ? Camel<V> : never]: Method<N> };
} & {
  /** Closes the client's connections. */
  close(): Promise<void>;
};

const camel = (name: string) => name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

function required(value: string | undefined, option: string, variable: string): string {
  if (value === undefined || value === '') throw new TypeError(`createClient: ${option} is required (or set ${variable}).`);
  return value;
}

/**
 * A client of every resource over the CLI's own HTTP client: the same auth headers, a
 * fresh idempotency key on every write, the same retries. A non-2xx answer throws
 * ApiError (`status`, `code`, `param`, `message`); an unreachable service, NetworkError.
 */
export function createClient(options: CreateClientOptions = {}): PayClient {
  const client = new Client({
    baseUrl: required(options.baseUrl ?? process.env.PAY_BASE_URL, 'baseUrl', 'PAY_BASE_URL'),
    account: required(options.account ?? process.env.PAY_ACCOUNT, 'account', 'PAY_ACCOUNT'),
    apiKey: required(options.apiKey ?? process.env.PAY_API_KEY, 'apiKey', 'PAY_API_KEY'),
    headerPrefix: options.headerPrefix ?? 'pay',
    retries: options.retries,
    timeoutMs: options.timeoutMs,
    userAgent: 'pay-client',
  });
  const resources: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const name of Object.keys(endpoints) as EndpointName[]) {
    if ((SOCKET_ENDPOINTS as readonly string[]).includes(name)) continue;
    const { method, path } = endpoints[name];
    const [resource, verb] = name.split('.') as [string, string];
    const withId = path.includes('{id}');
    (resources[camel(resource)] ??= {})[camel(verb)] = (...args: unknown[]) => {
      const [id, input, options] = (withId ? args : [undefined, ...args]) as [string | undefined, Record<string, unknown> | undefined, RequestOptions | undefined];
      return client.call(name, {
        params: id === undefined ? undefined : { id },
        ...(method === 'GET' ? { query: input as Record<string, string | number | boolean | undefined> } : { body: input ?? {} }),
        idempotencyKey: options?.idempotencyKey,
        timeoutMs: options?.timeoutMs,
      });
    };
  }
  return { ...resources, close: () => client.close() } as unknown as PayClient;
}
