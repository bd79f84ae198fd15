import type { Command } from 'commander';
import type { EndpointName } from '../../../domain/endpoints.js';
import { ApiError } from '../../../domain/errors.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { bodyFromPairs, withExamples } from '../../flags.js';
import { FLOWS, type Flow, type FlowRun } from './flows.js';

export interface TriggerOptions {
  flow?: string | undefined;
  list: boolean;
  override: string[];
}

export function register(command: Command, f: Factory): void {
  command
    .argument('[flow]', 'The flow to run; see --list')
    .option('--list', 'List the flows and the events each causes', false)
    .option('--override <step.field=value>', 'Set a field of a step\'s request, e.g. payment_intent.amount=5000 or payment_method.card.number=4000000000009995; a bare field is the main step\'s (repeatable)', (v: string, previous: string[] = []) => [...previous, v])
    .action(async (flow: string | undefined, flags: { list: boolean; override?: string[] }) => {
      await run({ flow, list: flags.list, override: flags.override ?? [] }, f);
    });
  withExamples(
    command,
    'pay trigger --list',
    'pay trigger payment_intent.succeeded',
    'pay trigger payment_intent.succeeded --override amount=4999 --override currency=eur',
    'pay trigger subscription.active --override price=2500 --json',
  );
}

/** `step.field.path=value` for a step of the flow, else `field.path=value` of its main step. */
export function overridesByStep(flow: Flow, pairs: string[]): Map<string, Record<string, unknown>> {
  const byStep = new Map<string, string[]>();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`Invalid --override '${pair}': expected step.field=value or field=value.`);
    const first = pair.slice(0, eq).split('.')[0]!;
    const [step, rest] = flow.steps.includes(first) && pair.indexOf('.') < eq ? [first, pair.slice(first.length + 1)] : [flow.primary, pair];
    byStep.set(step, [...(byStep.get(step) ?? []), rest]);
  }
  return new Map([...byStep].map(([step, list]) => [step, bodyFromPairs(list, '--override')]));
}

/**
 * Overrides win over the flow's own values, field by field, however deep. A value
 * replacing a string stays a string (a card number of digits is not a number).
 */
function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    const nested = value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object' && !Array.isArray(current);
    if (nested) out[key] = merge(current as Record<string, unknown>, value as Record<string, unknown>);
    else out[key] = typeof current === 'string' && typeof value !== 'object' ? String(value) : value;
  }
  return out;
}

export async function run(options: TriggerOptions, f: Factory): Promise<Record<string, string>> {
  if (options.list || options.flow === undefined) {
    if (!options.list) throw new UsageError(`Missing <flow>: one of ${FLOWS.map((flow) => flow.name).join(', ')} (pay trigger --list).`);
    f.io.printList([...FLOWS], [
      { header: 'FLOW', value: (flow) => flow.name },
      { header: 'DESCRIPTION', value: (flow) => flow.description },
      { header: 'EVENTS', value: (flow) => flow.events.join(', ') },
    ], FLOWS.map(({ name, description, events }) => ({ name, description, events })));
    return {};
  }
  const flow = FLOWS.find((candidate) => candidate.name === options.flow);
  if (!flow) throw new UsageError(`Unknown flow '${options.flow}': use one of ${FLOWS.map((candidate) => candidate.name).join(', ')}.`);
  const overrides = overridesByStep(flow, options.override);
  const client = await f.client();
  const created: Record<string, string> = {};
  const call = async <T>(step: string, endpoint: EndpointName, request: { params?: Record<string, string>; body?: Record<string, unknown> }) => {
    const body = merge(request.body ?? {}, overrides.get(step) ?? {});
    return client.call<T>(endpoint, { params: request.params, body });
  };
  const runner: FlowRun = {
    async step<T extends { id: string }>(step: string, endpoint: EndpointName, request: { params?: Record<string, string>; body?: Record<string, unknown>; record?: boolean } = {}) {
      const object = await call<T>(step, endpoint, request);
      if (request.record !== false) created[step] = object.id;
      return object;
    },
    record(name, id) {
      created[name] = id;
    },
    async declined(step, endpoint, request) {
      try {
        const object = await call<{ id: string }>(step, endpoint, request);
        created[step] = object.id;
        f.io.warn(`${step} ${object.id} was not declined (an override changed the card?).`);
      } catch (error) {
        const intent = error instanceof ApiError && error.status === 402 ? (error.extra.payment_intent as { id?: string } | undefined) : undefined;
        if (!intent?.id) throw error;
        created[step] = intent.id;
      }
    },
    async payPage(url, card) {
      const { request } = await import('undici');
      const response = await request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(card).toString() });
      await response.body.dump();
      // Paid: a redirect to success_url, or the receipt.
      if (response.statusCode !== 303 && response.statusCode !== 200) throw new Error(`Paying the checkout page ${url} answered ${response.statusCode}.`);
    },
    async today() {
      return (await client.call<{ now: string }>('test_helpers.clock')).now.slice(0, 10);
    },
    async advanceClock(date) {
      await client.call('test_helpers.clock_advance', { body: { to: date }, timeoutMs: 0 });
    },
  };
  await f.io.spin(`Running ${flow.name}…`, () => flow.run(runner));
  if (f.io.json) f.io.printJSON({ flow: flow.name, created, events: flow.events });
  else {
    if (f.io.human) f.io.success(`Triggered ${flow.name}: ${flow.events.join(', ')}`);
    f.io.printObject(created);
  }
  return created;
}
