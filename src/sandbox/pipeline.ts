import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type BaseObject, IDEMPOTENCY_KEY_RULE, IdempotencyKey } from '../domain/common.js';
import { endpoints, type EndpointName, isWrite } from '../domain/endpoints.js';
import { ApiError, clip, idempotencyKeyReused, invalid, parseOrThrow, shapeFor } from '../domain/errors.js';
import { type BodyOf, bodySchemaOf } from '../domain/request-bodies.js';
import type { ObjectKind } from '../domain/ids.js';
import { REDACTED_HEADER, SHOWN_ONCE } from '../domain/secrets.js';
import { SANDBOX_ACCOUNT_ID } from '../domain/test-helpers.js';
import type { Account } from './store/accounts.js';
import { idempotencyExpired, type StoredResponse } from './store/idempotency.js';
import type { Sandbox } from './sandbox.js';
import type { ServiceContext } from './services/context.js';

export interface RouteInput<B, Q> {
  body: B;
  query: Q;
  params: Record<string, string>;
  /** The sandbox's origin as the caller reached it, for absolute URLs (hosted pages). */
  origin: string;
  /** The request's Idempotency-Key and body hash, if it sent a key: what a handler committing its own steps resumes by. */
  idempotency: { key: string; bodyHash: string } | undefined;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** `{id}` placeholders of the endpoint table as fastify's `:id`. */
export const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * The request pipeline, one fixed sequence: authenticate → rate limit (both before the
 * body is read) → (replay, or 422 for a key used with another request) → parse → act in
 * one transaction → record for idempotency → respond once durable.
 * The transaction is the request's savepoint in the tick's group commit (Database
 * `grouped`), so a request's answer waits for its neighbours' shared COMMIT and fsync,
 * but its failure rolls back its own work alone. A rejected
 * request throws before or inside the transaction, so it changes nothing; a declined
 * payment (an ApiError with `commit`) keeps its changes and is replayed like a success.
 * A handler with `ownTransactions` (a long clock advance) commits its own steps: it
 * runs between the replay check and the record, outside a request transaction, holding
 * its key meanwhile (another request naming it is 422 as after the record). A route
 * that mints a secret names its field in `shownOnce`: the stored response holds a
 * marker instead, so a replay says the secret was shown once and never shows it again.
 */
export function apiRoute<N extends EndpointName, QS extends z.ZodType | undefined>(
  app: FastifyInstance,
  sandbox: Sandbox,
  name: N,
  schemas: { query?: QS; ownTransactions?: boolean; shownOnce?: string },
  handler: (ctx: ServiceContext, input: RouteInput<BodyOf<N>, Parsed<QS>>) => unknown,
): void {
  const { method, path } = endpoints[name];
  const bodySchema = bodySchemaOf(name);
  const db = sandbox.store.db;
  const held = heldKeysOf(sandbox);
  /** Each request's account, authenticated as it arrives. */
  const accounts = new WeakMap<FastifyRequest, Account>();
  app.route({
    method,
    url: fastifyPath(path),
    // Before the body is read: a request without a valid key is 401 (or 429) whatever its body, too large or not JSON.
    onRequest: (request, _reply, done) => {
      try {
        const account = authenticate(sandbox, request);
        sandbox.rateLimiter?.take(account.id);
        accounts.set(request, account);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const outcome = schemas.ownTransactions ? await inOwnTransactions(request) : await db.grouped(() => inOneTransaction(request), isWrite(method));
      if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
      if (outcome.redacted) reply.header(REDACTED_HEADER, schemas.shownOnce!);
      // The JSON already made for the idempotency record is the answer's body as it is.
      return reply.code(outcome.status).type(JSON_TYPE).send(outcome.json ?? sandbox.store.objects.jsonOf(outcome.body));
    },
  });

  function inOneTransaction(request: FastifyRequest): Outcome {
    const { account, replay, act, record } = steps(request);
    const ctx = sandbox.context(account);
    return replay(ctx) ?? record(ctx, act(ctx));
  }

  async function inOwnTransactions(request: FastifyRequest): Promise<Outcome> {
    const { account, parse, replay, record, holding } = steps(request);
    // Such a handler may be async (it yields between its steps); it declines no payment.
    const ctx = sandbox.context(account);
    const outcome = db.transaction(() => replay(ctx)) ?? await holding(async () => {
      const done: Outcome = { status: 200, body: await handler(ctx, parse()), replayed: false };
      db.transaction(() => record(sandbox.context(account), done));
      return done;
    });
    await db.durable();
    return outcome;
  }

  /** The replay, parse, act and record steps of an authenticated request. */
  function steps(request: FastifyRequest) {
    const account = accounts.get(request)!;
    const key = isWrite(method) ? idempotencyKeyOf(request) : undefined;
    const requestPath = request.url.split('?')[0]!;
    const bodyRequired = name.endsWith('create');
    // Of the body as parse reads it: none at all, where that is {}, is the same request as {}.
    const bodyHash = key === undefined ? '' : sandbox.store.keys.bodyMac(request.body === undefined && !bodyRequired ? {} : request.body);
    const heldName = `${account.id} ${key}`;

    // After the replay check: a key used before with another body is 422, whether or not this body is valid.
    const parse = (): RouteInput<BodyOf<N>, Parsed<QS>> => {
      const body = bodyObject(request.body, bodyRequired);
      const input = {
        body: (bodySchema ? parseOrThrow(bodySchema, body) : undefined) as BodyOf<N>,
        query: (schemas.query ? parseOrThrow(schemas.query, onceEach(schemas.query, request.query ?? {})) : undefined) as Parsed<QS>,
        params: request.params as Record<string, string>,
        origin: originOf(request),
        idempotency: key === undefined ? undefined : { key, bodyHash },
      };
      if (!schemas.query) rejectUnknown(request.query ?? {}, 'This operation takes no query parameters.');
      if (!bodySchema && isWrite(method)) rejectUnknown(body, 'This operation takes no body.');
      return input;
    };

    const replay = (ctx: ServiceContext): Outcome | undefined => {
      if (key === undefined) return undefined;
      const found = sandbox.store.idempotency.find(account.id, key);
      const stored = found && !idempotencyExpired(found.created, ctx.now) ? found : undefined;
      // A key held by a request still running (holding) is taken, though its answer is not recorded yet.
      const taken = stored ?? held.get(heldName);
      if (!taken) return undefined;
      if (taken.method !== method || taken.path !== requestPath || taken.body_hash !== bodyHash) {
        throw idempotencyKeyReused(key);
      }
      // The same request, still running: its handler decides (a clock advance waits for it).
      if (!stored) return undefined;
      const redacted = schemas.shownOnce !== undefined && (JSON.parse(stored.response) as Record<string, unknown>)[schemas.shownOnce] === SHOWN_ONCE;
      return { status: stored.status, body: undefined, json: stored.response, replayed: true, redacted };
    };
    const act = (ctx: ServiceContext): Outcome => {
      const input = parse();
      const outcome = keepingDeclines(() => handler(ctx, input));
      return 'declined' in outcome
        ? { status: outcome.declined.status, body: outcome.declined.toBody(), replayed: false }
        : { status: 200, body: outcome.value, replayed: false };
    };
    const record = (ctx: ServiceContext, outcome: Outcome): Outcome => {
      if (key !== undefined) {
        const stored = withoutSecret(outcome.body, schemas.shownOnce);
        const object = stored && typeof stored === 'object' && 'id' in stored && 'object' in stored ? (stored as BaseObject) : undefined;
        const json = sandbox.store.objects.jsonOf(stored);
        sandbox.store.idempotency.save(account.id, key, {
          method,
          path: requestPath,
          body_hash: bodyHash,
          status: outcome.status,
          response: json,
          created: ctx.now,
        }, object);
        if (stored === outcome.body) return { ...outcome, json };
      }
      return outcome;
    };

    /**
     * Runs fn, a handler and its record outside a request transaction, holding the key
     * meanwhile: another request taking it would run, then see its record replaced.
     */
    const holding = async (fn: () => Promise<Outcome>): Promise<Outcome> => {
      if (key === undefined) return fn();
      const mine = { method, path: requestPath, body_hash: bodyHash };
      held.set(heldName, mine);
      try {
        return await fn();
      } finally {
        // A retry of the same request holds it on in its place.
        if (held.get(heldName) === mine) held.delete(heldName);
      }
    };

    return { account, parse, replay, act, record, holding };
  }
}

type HeldKey = Pick<StoredResponse, 'method' | 'path' | 'body_hash'>;

/** Each sandbox's keys held by requests still running outside a request transaction, by account and key. */
const heldKeys = new WeakMap<Sandbox, Map<string, HeldKey>>();

function heldKeysOf(sandbox: Sandbox): Map<string, HeldKey> {
  let held = heldKeys.get(sandbox);
  if (!held) heldKeys.set(sandbox, (held = new Map()));
  return held;
}

const JSON_TYPE = 'application/json; charset=utf-8';

interface Outcome {
  status: number;
  body: unknown;
  /** The body as JSON, when it was made already. */
  json?: string;
  replayed: boolean;
  /** A replay whose secret was withheld. */
  redacted?: boolean;
}

/** The response as stored for replays: the minted secret, if any, replaced by the marker. */
function withoutSecret(body: unknown, field: string | undefined): unknown {
  if (field === undefined || !body || typeof body !== 'object' || !(field in body)) return body;
  return { ...body, [field]: SHOWN_ONCE };
}

/**
 * Runs fn inside the caller's transaction. A declined payment attempt (an ApiError with
 * `commit`) is returned, so the transaction keeps its changes; any other error is thrown
 * and rolls the transaction back.
 */
function keepingDeclines<T>(fn: () => T): { value: T } | { declined: ApiError } {
  try {
    return { value: fn() };
  } catch (error) {
    if (error instanceof ApiError && error.commit) return { declined: error };
    throw error;
  }
}

/** What a service did for a page: its value, or the ApiError that refused or declined it. */
export type PageOutcome<T> = { value: T } | { declined: ApiError };

/**
 * The pipeline of a hosted page (checkout, payment links), one fixed sequence too: no
 * API key, the unguessable id in the URL is the capability, so → the account owning
 * that object → act in one transaction (its savepoint of the group commit) → the outcome once durable. A refusal is returned, not thrown,
 * for the page to show: a declined payment keeps its changes, any other refusal rolls
 * back. Undefined when no account owns such an object.
 */
export async function pageCall<T>(sandbox: Sandbox, kind: ObjectKind, id: string, act: (ctx: ServiceContext) => T): Promise<PageOutcome<T> | undefined> {
  try {
    return await sandbox.store.db.grouped(() => {
      const owner = sandbox.store.objects.ownerOf(kind, id);
      const account = owner === undefined ? undefined : sandbox.store.accounts.byId(owner);
      return account && keepingDeclines(() => act(sandbox.context(account)));
    });
  } catch (error) {
    if (error instanceof ApiError) return { declined: error };
    throw error;
  }
}

export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** What authentication reads of a request: also an upgrade request of a WebSocket hub. */
type HeaderSource = Pick<FastifyRequest, 'headers'>;

function headerValue(request: HeaderSource, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A write's Idempotency-Key, if it sent one: one breaking the rule is refused before any record is looked up. */
function idempotencyKeyOf(request: HeaderSource): string | undefined {
  const key = headerValue(request, 'idempotency-key');
  if (key !== undefined && !IdempotencyKey.safeParse(key).success) {
    throw new ApiError(400, 'parameter_invalid', `Invalid Idempotency-Key header: ${IDEMPOTENCY_KEY_RULE}.`, { param: 'Idempotency-Key' });
  }
  return key;
}

/**
 * The request's JSON object. No body at all is `{}` (bodiless POSTs such as cancel need not
 * send one), except for a create, which must say what it creates; `null`, an array or a
 * scalar is never a body.
 */
function bodyObject(body: unknown, required: boolean): object {
  if (body === undefined) {
    if (required) throw new ApiError(400, 'parameter_missing', 'Missing the request body: send a JSON object of the fields ({} when none is required).', { param: 'body' });
    return {};
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    const got = body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`;
    throw new ApiError(400, 'parameter_invalid', `Invalid body: the request body must be a JSON object, not ${got}.`, { param: 'body' });
  }
  return body;
}

/**
 * A query parameter the operation takes, given twice (`?limit=2&limit=3`), arrives as an
 * array: it is told to be given once, where its schema would state a rule both values meet.
 */
function onceEach(schema: z.ZodType, query: object): object {
  const taken = shapeFor(schema, query) ?? {};
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value) && Object.hasOwn(taken, name)) throw invalid(name, `Invalid ${name}: give it once; it was given ${value.length} times.`);
  }
  return query;
}

/** Unknown fields are refused (DESIGN section 4): in the body or the query of an operation that takes none. */
function rejectUnknown(fields: object, rule: string): void {
  const keys = Object.keys(fields);
  if (keys.length > 0) {
    const param = clip(keys[0]!);
    throw new ApiError(400, 'parameter_unknown', `Received unknown parameter: ${param}. ${rule}`, { param });
  }
}

/** Spec section 5: `<prefix>-account` and `<prefix>-api-key` on every request. */
export function authenticate(sandbox: Sandbox, request: HeaderSource): Account {
  const prefix = sandbox.options.headerPrefix;
  const apiKey = headerValue(request, `${prefix}-api-key`);
  if (!apiKey) {
    throw new ApiError(401, 'api_key_missing', `No API key provided: send it in the ${prefix}-api-key header.`);
  }
  const account = sandbox.store.accounts.byKey(apiKey);
  if (!account) throw new ApiError(401, 'api_key_invalid', 'Invalid API key provided.');
  const accountId = headerValue(request, `${prefix}-account`);
  if (!accountId) {
    throw new ApiError(401, 'account_missing', `No account provided: send the merchant account id in the ${prefix}-account header.`);
  }
  if (accountId !== account.id) {
    // Not an account id: most likely the key itself (the two headers or variables swapped), never to be echoed into a log.
    if (!SANDBOX_ACCOUNT_ID.test(accountId)) {
      throw new ApiError(403, 'account_mismatch', `The API key does not belong to the ${prefix}-account header's value, which is not an account id (acct_…): send the merchant account id there, not the key.`);
    }
    throw new ApiError(403, 'account_mismatch', `The API key does not belong to account '${clip(accountId)}'.`);
  }
  return account;
}
