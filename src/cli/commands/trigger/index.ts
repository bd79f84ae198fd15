import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { FlowFile } from '../../../domain/flows.js';
import { packageFile } from '../../../infra/package-files.js';
import { arg, defineCommand, flag, type OptionsOf } from '../../command.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { bodyFromPairs } from '../../flags.js';

/** The built-in flows, in the order --list shows them: each is `flows/<name>.json` of the package. */
export const BUILT_IN_FLOWS = [
  'customer.created',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'charge.refunded',
  'subscription.active',
  'subscription.past_due',
  'checkout.completed',
] as const;
const FLOWS_DIR = packageFile('flows/');

const flags = {
  file: flag.string('--file <flow.json>', 'Run the flow in this file: named steps (requests, clock advances, reader presents, checkout payments) whose values may refer to earlier results, e.g. "${customer.id}"'),
  list: flag.bool('--list', 'List the built-in flows and the events each causes'),
  show: flag.bool('--show', 'Print the named built-in flow\'s file, to copy and change'),
  override: flag.repeated('--override <step.field=value>', 'Set a field of a step, e.g. payment_intent.amount=5000 or payment_method.card.number=4000000000009995; a bare field is the main step\'s (repeatable)'),
};
const args = { flow: arg.choice('[flow]', 'The built-in flow to run; see --list', BUILT_IN_FLOWS) };
export type TriggerOptions = OptionsOf<typeof args, typeof flags>;

const trigger = defineCommand({
  name: 'trigger',
  description: 'Run a named flow (a payment, a refund, a subscription…) to cause its events',
  args,
  flags,
  examples: [
    'pay trigger --list',
    'pay trigger payment_intent.succeeded',
    'pay trigger payment_intent.succeeded --override amount=4999 --override currency=eur',
    'pay trigger subscription.active --override price=2500 --json',
    'pay trigger --show subscription.active > flow.json    # copy a flow, change it, then:',
    'pay trigger --file flow.json --override customer.email=jenny@example.com',
  ],
  help: `
With --json: {flow, created, events, steps}, events being the types of the events the
run caused, oldest first (--json created,steps keeps those); with --list, the flows as
a list (--json name,events).
`,
  run: (options, f) => run(options, f),
});

/** `pay trigger` is a noun that is itself the command. */
export const register = (command: Command, f: Factory) => void trigger.configure(command, f);

const LIST_FIELDS = ['name', 'description', 'events'];
const RUN_FIELDS = ['flow', 'created', 'events', 'steps'];

/** A flow file's text, checked against the format: a usage error names the step and field. */
export async function parseFlow(text: string, source: string): Promise<FlowFile> {
  // zod is loaded only when a flow runs, not for --help.
  const { FlowFile } = await import('../../../domain/flows.js');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`Invalid flow file ${source}: not JSON (${(error as Error).message}).`);
  }
  const parsed = FlowFile.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = [...issue.path.map(String), ...(issue.code === 'unrecognized_keys' ? [issue.keys[0]!] : [])];
  let where = path.join('.');
  if (path[0] === 'steps' && path[1] !== undefined) {
    const name = (json as { steps: Array<{ name?: unknown }> }).steps[Number(path[1])]?.name;
    where = `step ${typeof name === 'string' ? `'${name}' ` : ''}(steps[${path[1]}])${path.length > 2 ? ` ${path.slice(2).join('.')}` : ''}`;
  }
  const message = issue.code === 'unrecognized_keys' ? 'is not a field of the flow format' : issue.message;
  throw new UsageError(`Invalid flow file ${source}: ${where || 'the file'}: ${message}.`);
}

/** A built-in flow's file (commander has checked the name against BUILT_IN_FLOWS). */
async function builtIn(name: string): Promise<string> {
  return readFile(new URL(`${name}.json`, FLOWS_DIR), 'utf8');
}

async function fromFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory; name a flow file' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new UsageError(`Cannot read --file ${file}: ${why}.`);
  }
}

/** `step.field.path=value` for a step of the flow, else `field.path=value` of its main step. */
export function overridesByStep(flow: FlowFile, primary: string, pairs: string[]): Map<string, Record<string, unknown>> {
  const steps = flow.steps.map((step) => step.name);
  const byStep = new Map<string, string[]>();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`Invalid --override '${pair}': expected step.field=value or field=value.`);
    const first = pair.slice(0, eq).split('.')[0]!;
    const [step, rest] = steps.includes(first) && pair.indexOf('.') < eq ? [first, pair.slice(first.length + 1)] : [primary, pair];
    byStep.set(step, [...(byStep.get(step) ?? []), rest]);
  }
  return new Map([...byStep].map(([step, list]) => [step, bodyFromPairs(list, '--override')]));
}

export async function run(options: TriggerOptions, f: Factory): Promise<Record<string, string>> {
  // Each would be ignored in silence: a script would get the bare list, or a file without the change it asked for.
  if (options.list && (options.flow !== undefined || options.file !== undefined || options.show || options.override !== undefined)) {
    throw new UsageError('--list lists the built-in flows: it takes no <flow>, --file, --show or --override.');
  }
  if (options.show && options.override !== undefined) {
    throw new UsageError('--show and --override cannot be used together: --show prints the built-in flow as it is; change the copy, or run it with --override.');
  }
  if (options.list) {
    f.io.declareFields(LIST_FIELDS);
    const flows = await Promise.all(BUILT_IN_FLOWS.map(async (name) => parseFlow(await builtIn(name), `${name}.json`)));
    const rows = flows.map((flow) => ({ name: flow.name!, description: flow.description ?? '', events: flow.events ?? [] }));
    f.io.printList(rows, [
      { header: 'FLOW', value: (flow) => flow.name },
      { header: 'DESCRIPTION', value: (flow) => flow.description },
      { header: 'EVENTS', value: (flow) => flow.events.join(', ') },
    ]);
    return {};
  }
  if (options.file !== undefined && options.flow !== undefined) throw new UsageError(`Give a built-in flow or --file, not both ('${options.flow}' and --file ${options.file}).`);
  if (options.file === undefined && options.flow === undefined) {
    throw new UsageError(`Missing <flow>: one of ${BUILT_IN_FLOWS.join(', ')} (pay trigger --list), or --file flow.json.`);
  }
  if (options.show) {
    f.io.refuseFields('--show prints the flow file as it is');
    if (options.flow === undefined) throw new UsageError('--show prints a built-in flow: name one, e.g. pay trigger --show payment_intent.succeeded.');
    f.io.out(await builtIn(options.flow));
    return {};
  }
  f.io.declareFields(RUN_FIELDS);
  const source = options.file ?? `${options.flow}.json`;
  const flow = await parseFlow(options.file === undefined ? await builtIn(options.flow!) : await fromFile(options.file), source);
  const name = flow.name ?? basename(source);
  const { primaryStep } = await import('../../../domain/flows.js');
  const overrides = overridesByStep(flow, primaryStep(flow), options.override ?? []);
  const { checkBodies, FlowBodyError, runFlow, FlowReferenceError } = await import('../../../flows/runner.js');
  try {
    checkBodies(flow, overrides);
  } catch (error) {
    throw error instanceof FlowBodyError ? new UsageError(error.message) : error;
  }
  // Test helpers never go to a service elsewhere; refused before the steps ahead of them make real objects there.
  const helper = flow.steps.find((step) => step.advance_clock !== undefined || step.present !== undefined);
  if (helper !== undefined) {
    const { maybeSandbox } = await import('../../../config/resolve.js');
    const profile = await f.profile();
    const what = helper.advance_clock !== undefined ? 'advances the test clock, which only the sandbox has' : 'presents a card on a reader, which only the sandbox does';
    if (!maybeSandbox(profile)) throw new UsageError(`Profile '${profile.name}' (${profile.base_url}) is not a sandbox: flow ${name} ${what}.`);
  }
  const client = await f.client();
  const outcome = await f.io
    .spin(`Running ${name}…`, () => runFlow(flow, { client, overrides, warn: (message) => f.io.warn(message) }))
    .catch((error: unknown) => {
      // The file refers to a field its earlier step did not answer: the file is wrong.
      throw error instanceof FlowReferenceError ? new UsageError(error.message) : error;
    });
  const { events } = outcome;
  // An override can change what a flow comes to (a declining card): its file's list is then not what happened.
  const missing = (flow.events ?? []).filter((type) => !events.includes(type));
  if (missing.length > 0) {
    const instead = events.filter((type) => !flow.events!.includes(type));
    f.io.warn(`${name} ${instead.length > 0 ? `caused ${instead.join(', ')}, not` : 'did not cause'} ${missing.join(', ')} as the flow names.`);
  }
  if (f.io.json) f.io.printJSON({ flow: name, created: outcome.created, events, steps: outcome.results });
  else {
    if (f.io.human) f.io.success(`Triggered ${name}${events.length > 0 ? `: ${events.join(', ')}` : ''}`);
    f.io.printObject(outcome.created);
  }
  return outcome.created;
}
