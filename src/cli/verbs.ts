import type { z } from 'zod';
import type { ListPage } from '../domain/common.js';
import type { EndpointName } from '../domain/endpoints.js';
import type { ObjectKind } from '../domain/ids.js';
import { type Arg, arg, bodyFrom, type CommandDefinition, defineCommand, fieldsFrom, flag, type Flag, type OptionsOf } from './command.js';
import type { Factory } from './factory.js';
import type { Column } from './io/io.js';
import { confirmDestructive, yesFlag } from './prompts.js';

/*
 * The verbs every resource has, defined once: get one by id, list a page (or every
 * page), and change one's state. A noun lists them in one line each.
 */

type Flags = Record<string, Flag<unknown>>;
type Query = Record<string, string | number | undefined>;

interface ByIdSpec<T, F extends Flags> {
  description: string;
  /** Help of the `<id>` argument, e.g. `Customer id (cus_…)`. */
  id: string;
  examples: readonly string[];
  /** The resource's top-level fields (`--json id,status`). */
  fields: readonly string[];
  flags?: F;
  /** The request body the flags make, checked before the request with this schema (loaded then). */
  body?: () => Promise<z.ZodType>;
  /** Prints the answer (default: the object). */
  show?: (f: Factory, value: T, options: OptionsOf<{ id: Arg<string> }, F>) => void;
  /**
   * A destructive change: asked at a TTY, `--yes` in scripts. `what` says what it does
   * (`canceling a payment intent is irreversible`), `question` asks about one id.
   */
  destructive?: { what: string; question: (id: string) => string };
}

const printObject = (f: Factory, value: unknown) => f.io.printObject(value as object);

/** The kind of object an endpoint acts on: `payment_intents.capture` → `payment_intent`. */
const kindOf = (endpoint: EndpointName) => endpoint.slice(0, endpoint.indexOf('.')).replace(/s$/, '') as ObjectKind;

/** A command on one object: `<id>`, flags making an optional body, one call, the answer shown. */
export function stateCommand<T, const F extends Flags = Record<never, never>>(name: string, endpoint: EndpointName, spec: ByIdSpec<T, F>) {
  const flags = { ...((spec.flags ?? {}) as F), ...(spec.destructive ? yesFlag : {}) } as F & Partial<typeof yesFlag>;
  return defineCommand({
    name,
    description: spec.description,
    args: { id: arg.id(kindOf(endpoint), spec.id) },
    flags,
    examples: spec.examples,
    fields: spec.fields,
    async run(options, f) {
      const body = spec.body ? bodyFrom(await spec.body(), flags, options) : undefined;
      if (spec.destructive) await confirmDestructive(f.io, options.yes === true, spec.destructive.what, spec.destructive.question(options.id));
      const client = await f.client();
      const value = await client.call<T>(endpoint, { params: { id: options.id }, ...(body === undefined ? {} : { body }) });
      (spec.show ?? printObject)(f, value, options);
      return value;
    },
  });
}

/** `get <id>`: shows one object. */
export const getCommand = <T>(endpoint: EndpointName, spec: Omit<ByIdSpec<T, Record<never, never>>, 'flags' | 'body'>) => stateCommand<T>('get', endpoint, spec);

interface ListSpec<T, F extends Flags> {
  description: string;
  columns: Column<T>[];
  examples: readonly string[];
  fields: readonly string[];
  /**
   * The domain's list query, loaded when needed: flags given are checked with it before
   * any request. The flags' defaults make a valid query without it, so a plain list
   * loads no schema (and no zod).
   */
  query: () => Promise<z.ZodType<Query>>;
  /** Filters, each carrying its query field. */
  filters?: F;
}

const listFlags = {
  // No default sent: the service's page applies, 10, or every match where the spec asks for all (intents by subscription_id).
  limit: flag.int('--limit <n>', 'How many to show, 1 to 100 (default 10)', { field: 'limit' }),
  startingAfter: flag.string('--starting-after <id>', 'Show the page after this id (cursor from a previous page)', { field: 'starting_after' }),
};
const allFlag = { all: flag.bool('--all', 'Show every page, newest first (fetched 100 at a time)', { optional: true, conflicts: ['limit'] }) };

/** The page size of `--all`: the most the service gives at once. */
const ALL_PAGE = 100;

/** `list`: a page, newest first (`--limit`, `--starting-after`), or every page with `--all`; filters from the resource's query. */
export function listCommand<T extends { id: string }, const F extends Flags = Record<never, never>>(endpoint: EndpointName, spec: ListSpec<T, F>): CommandDefinition<Record<never, never>, typeof listFlags & F & typeof allFlag> {
  const flags = { ...listFlags, ...((spec.filters ?? {}) as F), ...allFlag };
  return defineCommand({
    name: 'list',
    description: spec.description,
    flags,
    examples: spec.examples,
    fields: spec.fields,
    async run(options, f) {
      const defaults = Object.entries(flags).every(([key, given]) => options[key as keyof typeof options] === given.defaultValue);
      const query = defaults ? (fieldsFrom(flags, options) as Query) : bodyFrom(await spec.query(), flags, options);
      const client = await f.client();
      const page = (starting_after?: string) =>
        client.call<ListPage<T>>(endpoint, { query: options.all ? { ...query, limit: ALL_PAGE, ...(starting_after ? { starting_after } : {}) } : query });
      if (!options.all) {
        const first = await page();
        f.io.printList(first.data, spec.columns, first);
        if (first.has_more && f.io.human) f.io.info(`More: --starting-after ${first.data.at(-1)?.id}`);
        return first.data;
      }
      const data = await f.io.spin('Fetching every page…', async () => {
        const all: T[] = [];
        for (let next = await page(query.starting_after as string | undefined); ; next = await page(all.at(-1)!.id)) {
          all.push(...next.data);
          if (!next.has_more || next.data.length === 0) return all;
        }
      });
      f.io.printList(data, spec.columns);
      return data;
    },
  });
}
