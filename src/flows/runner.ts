import { request } from 'undici';
import type { z } from 'zod';
import { toApiError } from '../client/api-error.js';
import type { Client } from '../client/client.js';
import { NetworkError } from '../client/errors.js';
import type { ListPage } from '../domain/common.js';
import { ApiError, fieldsTaken, shapeFor } from '../domain/errors.js';
import type { Event } from '../domain/events.js';
import { CLOCK_REFERENCE, type FlowFile, type FlowStep, PayCheckout, REFERENCE, references, type StepKind, STEP_KINDS } from '../domain/flows.js';
import type { PaymentIntent } from '../domain/payment-intents.js';
import { readerDecline } from '../domain/reader-declines.js';
import type { Refund } from '../domain/refunds.js';
import { type CheckoutSession, readCheckoutForm } from '../domain/checkout.js';
import { bodySchemaOf, endpointOf } from '../domain/request-bodies.js';
import { addDays } from '../domain/schedule.js';

/** A reference that names a field the earlier step's result does not have. */
export class FlowReferenceError extends Error {
  override name = 'FlowReferenceError';
}

/** A step's field, in the file or an override, its endpoint does not take, or a value its rule refuses: found before any step runs. */
export class FlowBodyError extends Error {
  override name = 'FlowBodyError';
}

/**
 * Each request or present step's body, as the file and the overrides make it, against what
 * its step's endpoint takes, before anything runs: a field it does not take (a step's name
 * mistyped in an override lands on the main step), or a value its rule refuses, names the
 * step, rather than failing once earlier steps have created things. Values that refer to
 * earlier results, and objects, are left to the service.
 */
export function checkBodies(flow: FlowFile, overrides: ReadonlyMap<string, Record<string, unknown>>): void {
  const steps = flow.steps.map((step) => step.name);
  for (const step of flow.steps) {
    const overridden = overrides.get(step.name) ?? {};
    if (step.pay_checkout) checkCard(step.name, step.pay_checkout, overridden);
    if (step.present) {
      // The reader goes in the path; the rest is the present endpoint's body.
      const { reader: _reader, ...sent } = merge(step.present, overridden);
      checkBody(step.name, 'present', bodySchemaOf('test_helpers.reader_present')!, sent, overridden, steps, ['reader']);
    }
    const request = step.request;
    const endpoint = request && endpointOf(request.method, request.path);
    const schema = endpoint && bodySchemaOf(endpoint);
    if (!request || !schema) continue;
    // As the step will send them: a value replacing a string stays a string.
    checkBody(step.name, `${request.method} ${request.path}`, schema, merge(request.body ?? {}, overridden), overridden, steps);
  }
}

/** One step's body against its endpoint's schema: each field, then the rules between fields once no value waits for an earlier result. */
function checkBody(step: string, what: string, schema: z.ZodType, sent: Record<string, unknown>, overridden: Record<string, unknown>, steps: string[], pathFields: string[] = []): void {
  const shape = shapeFor(schema, sent);
  if (!shape) return;
  for (const field of Object.keys(sent)) {
    const given = givenAs(step, field, overridden);
    if (!(field in shape)) {
      const others = field in overridden ? ` A field of another step starts with its name (steps: ${steps.join(', ')}).` : '';
      throw new FlowBodyError(`Invalid ${given}: step '${step}' (${what}) takes no field '${field}'; its fields: ${[...pathFields, ...fieldsTaken(shape)].join(', ')}.${others}`);
    }
    const value = sent[field];
    if ((typeof value === 'object' && value !== null) || (typeof value === 'string' && value.includes('${'))) continue;
    const checked = shape[field]!.safeParse(value);
    if (!checked.success) throw new FlowBodyError(`Invalid ${given}: ${checked.error.issues[0]!.message}.`);
  }
  if (JSON.stringify(sent).includes('${')) return;
  const whole = schema.safeParse(sent);
  if (!whole.success) {
    const issue = whole.error.issues[0]!;
    throw new FlowBodyError(`Invalid ${givenAs(step, issue.path.join('.'), overridden)}: ${issue.message}.`);
  }
}

/** A pay_checkout step's card, as the file and the overrides make it, by the hosted page's own rules. */
function checkCard(step: string, input: Record<string, unknown>, overridden: Record<string, unknown>): void {
  const checked = PayCheckout.safeParse(merge(input, overridden));
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const field = issue.code === 'unrecognized_keys' ? [...issue.path, ...issue.keys].join('.') : issue.path.join('.');
    throw new FlowBodyError(`Invalid ${givenAs(step, field, overridden)}: ${issue.code === 'unrecognized_keys' ? `a pay_checkout step takes no field '${field}'; its fields: session, card.number, card.exp, card.cvc, card.zip` : issue.message}.`);
  }
  const card = { ...SUCCEEDING_CARD, ...checked.data.card };
  if (Object.values(card).some((value) => value.includes('${'))) return;
  const [issue] = readCheckoutForm(card).issues;
  if (issue) throw new FlowBodyError(`Invalid card of step '${step}': the checkout page refuses ${issue.param}: ${issue.message}.`);
}

const givenAs = (step: string, field: string, overridden: Record<string, unknown>) =>
  field.split('.')[0]! in overridden ? `--override ${step}.${field}` : `step '${step}': ${field}`;

export interface FlowOutcome {
  /** Every step's result, by step name, in order. */
  results: Record<string, unknown>;
  /** The id of each object the flow made, by the step that made it first. */
  created: Record<string, string>;
  /**
   * The types of the events logged while it ran about its objects, oldest first: what it
   * caused, whatever its file names (others' requests to the same service are not its).
   */
  events: string[];
}

export interface RunFlowOptions {
  client: Client;
  /** Fields set over each step's own (`--override`), by step name. */
  overrides?: Map<string, Record<string, unknown>>;
  /** A step that ended otherwise than its flow expected, without failing. */
  warn(message: string): void;
}

const SUCCEEDING_CARD = { number: '4242424242424242', exp: '12 / 99', cvc: '123', zip: '94107' };

/**
 * Runs a validated flow step by step. A step that fails throws the service's error with
 * the step's name in front, so its exit code is the one the error maps to.
 */
export async function runFlow(flow: FlowFile, options: RunFlowOptions): Promise<FlowOutcome> {
  const { client } = options;
  const results: Record<string, unknown> = {};
  const created: Record<string, string> = {};
  const before = (await client.call<ListPage<Event>>('events.list', { query: { limit: 1 } })).data[0]?.id;
  for (const step of flow.steps) {
    const kind = STEP_KINDS.find((k) => step[k] !== undefined)!;
    const input = merge(inputOf(step, kind), options.overrides?.get(step.name) ?? {});
    let result: unknown;
    try {
      const resolve = await resolverFor(step, input, results, client);
      result = await runStep(step, kind, resolve(input) as Record<string, unknown>, options, resolve);
    } catch (error) {
      throw named(step.name, error);
    }
    results[step.name] = result;
    const id = (result as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string' && !Object.values(created).includes(id)) created[step.name] = id;
  }
  const ours = new Set(Object.values(results).flatMap(idsOf));
  return { results, created, events: await eventTypesAfter(client, before, (event) => [...idsOf(event.data.object), ...idsOf(event.data)].some((id) => ours.has(id))) };
}

/** The ids a result or an event's object names: its own, and those its `…_id` fields refer to. */
function idsOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, id]) => ((key === 'id' || key.endsWith('_id')) && typeof id === 'string' ? [id] : []));
}

/** The types of the events logged after `before` (all of them without it) that `isOurs`, oldest first. */
async function eventTypesAfter(client: Client, before: string | undefined, isOurs: (event: Event) => boolean): Promise<string[]> {
  const types: string[] = [];
  let starting_after: string | undefined;
  for (;;) {
    const page = await client.call<ListPage<Event>>('events.list', { query: { limit: 100, ...(starting_after === undefined ? {} : { starting_after }) } });
    for (const event of page.data) {
      if (event.id === before) return types.reverse();
      if (isOurs(event)) types.push(event.type);
    }
    if (!page.has_more) return types.reverse();
    starting_after = page.data.at(-1)!.id;
  }
}

/** The fields a step sends, which overrides change. */
function inputOf(step: FlowStep, kind: StepKind): Record<string, unknown> {
  if (kind === 'request') return step.request!.method === 'GET' ? (step.request!.query ?? {}) : (step.request!.body ?? {});
  return step[kind] as Record<string, unknown>;
}

async function runStep(step: FlowStep, kind: StepKind, input: Record<string, unknown>, options: RunFlowOptions, resolve: (value: unknown, inPath?: boolean) => unknown): Promise<unknown> {
  const { client } = options;
  switch (kind) {
    case 'request': {
      const { method } = step.request!;
      const path = resolve(step.request!.path, true) as string;
      const response = await client.raw(method, path, method === 'GET' ? { query: input as Record<string, string> } : { body: input });
      if (response.status >= 200 && response.status < 300) {
        if (step.expect === 'declined') options.warn(`Step '${step.name}' was not declined (an override changed the card?).`);
        return response.body;
      }
      const error = toApiError(response);
      const intent = error.extra.payment_intent;
      if (step.expect === 'declined' && error.status === 402 && intent) return intent;
      throw error;
    }
    case 'advance_clock': {
      const days = input.days === undefined ? undefined : Number(input.days);
      return client.call('test_helpers.clock_advance', { body: days === undefined ? { to: input.to } : { days }, timeoutMs: 0 });
    }
    case 'present': {
      const { reader, ...body } = input;
      const result = await client.call<PaymentIntent | Refund>('test_helpers.reader_present', { params: { id: String(reader) }, body });
      // A decline fails the flow (exit 6) as a declined request step does, unless the flow expects it.
      const declined = readerDecline(result, String(reader));
      if (declined && step.expect !== 'declined') {
        const { message, code, ...declinedObjects } = declined;
        throw new ApiError(402, code, message, { extra: declinedObjects });
      }
      if (!declined && step.expect === 'declined') options.warn(`Step '${step.name}' was not declined (an override changed the card?).`);
      return result;
    }
    case 'pay_checkout':
      return payCheckout(client, String(input.session), { ...SUCCEEDING_CARD, ...(input.card as Record<string, string> | undefined) });
  }
}

const jsonOrNothing = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Pays a hosted checkout page as a customer would; the result is the session's payment intent. */
async function payCheckout(client: Client, sessionId: string, card: Record<string, string>): Promise<PaymentIntent> {
  const session = await client.call<CheckoutSession>('checkout_sessions.get', { params: { id: sessionId } });
  // The card goes where the profile's key goes, and nowhere else.
  if (new URL(session.checkout_session_url).origin !== new URL(client.baseUrl).origin) {
    throw new ApiError(502, 'checkout_page_elsewhere', `The checkout page ${session.checkout_session_url} is not on the service's origin ${new URL(client.baseUrl).origin}: no card was sent.`);
  }
  let status: number;
  let text: string;
  try {
    const response = await request(session.checkout_session_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(card).toString(),
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    // The page takes no Idempotency-Key, so its POST is never sent again: the intent tells
    // whether the card was charged before the connection failed.
    const intent = await client.call<PaymentIntent>('payment_intents.get', { params: { id: session.payment_intent_id } });
    if (intent.status === 'succeeded') return intent;
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw new NetworkError(`Could not reach the checkout page ${session.checkout_session_url} (${code}). Its payment intent ${intent.id} is ${intent.status}: see pay intents get ${intent.id} before paying again.`, session.checkout_session_url, { cause: error });
  }
  const intent = await client.call<PaymentIntent>('payment_intents.get', { params: { id: session.payment_intent_id } });
  // Paid: a redirect to success_url, or the receipt. Otherwise the page says why, as the API would.
  if (status === 303 || status === 200) return intent;
  const failure = intent.last_payment_error;
  if (failure) throw new ApiError(402, failure.code, failure.message, { extra: { payment_intent: intent } });
  const refused = toApiError({ status, headers: {}, body: jsonOrNothing(text) });
  // A page with no error body to give (a session expired or paid since) is told by its status.
  if (refused.code === 'unexpected_response') throw new ApiError(status, 'checkout_page_refused', `The checkout page ${session.checkout_session_url} refused the payment (HTTP ${status}).`);
  throw new ApiError(refused.status, refused.code, `The checkout page refused the card: ${refused.message}`, { param: refused.param });
}

/**
 * Resolves `${step.path}` references against earlier results, and `${clock.*}` against
 * the test clock, read once before the step when it refers to it. A string that is one
 * whole reference becomes the value itself; in a path, a value is URI-encoded.
 */
async function resolverFor(step: FlowStep, input: Record<string, unknown>, results: Record<string, unknown>, client: Client) {
  const known: Record<string, unknown> = { ...results };
  if (references([step, input]).some((ref) => ref.name === CLOCK_REFERENCE)) {
    const now = (await client.call<{ now: string }>('test_helpers.clock')).now;
    known[CLOCK_REFERENCE] = { now, today: now.slice(0, 10), tomorrow: addDays(now.slice(0, 10), 1) };
  }
  const lookup = (name: string, field: string): unknown => {
    let value: unknown = known[name];
    for (const key of field === '' ? [] : field.split('.')) {
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    }
    if (value === undefined) {
      const why = name in known ? `the result of '${name}' has no ${field}` : `no step '${name}' ran before it`;
      throw new FlowReferenceError(`Step '${step.name}': \${${name}${field ? `.${field}` : ''}} refers to nothing: ${why}.`);
    }
    return value;
  };
  const resolve = (value: unknown, inPath = false): unknown => {
    if (typeof value === 'string') {
      const whole = new RegExp(`^${REFERENCE.source}$`).exec(value);
      if (whole && !inPath) return lookup(whole[1]!, whole[2]!.slice(1));
      return value.replace(REFERENCE, (_, name: string, field: string) => {
        const found = lookup(name, field.slice(1));
        const text = typeof found === 'object' ? JSON.stringify(found) : String(found);
        return inPath ? encodeURIComponent(text) : text;
      });
    }
    if (Array.isArray(value)) return value.map((item) => resolve(item));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item)]));
    return value;
  };
  return resolve;
}

/**
 * Overrides win over the flow's own values, field by field, however deep. A value
 * replacing a string stays a string (a card number of digits is not a number).
 */
export function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    const nested = value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object' && !Array.isArray(current);
    if (nested) out[key] = merge(current as Record<string, unknown>, value as Record<string, unknown>);
    else out[key] = typeof current === 'string' && typeof value !== 'object' ? String(value) : value;
  }
  return out;
}

/** The step's error with the step's name in front; its kind (so its exit code) kept. */
function named(step: string, error: unknown): unknown {
  if (error instanceof ApiError) {
    const renamed = new ApiError(error.status, error.code, `Step '${step}': ${error.message}`, { param: error.param, extra: error.extra });
    return Object.assign(renamed, { cause: error });
  }
  if (error instanceof NetworkError) return new NetworkError(`Step '${step}': ${error.message}`, error.url, { cause: error });
  return error;
}
