import type { Command } from 'commander';
import { checkPath } from '../../../client/url.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { bodyFromFields, splitPair, withExamples } from '../../flags.js';

/** A `-f` (string) or `-F` (typed) field, in the order given. */
export interface FieldFlag {
  pair: string;
  typed: boolean;
}

export interface ApiOptions {
  method: string;
  path: string;
  fields: FieldFlag[];
  dataJson?: string;
  idempotencyKey?: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

export function register(command: Command, f: Factory): void {
  // Both flags feed one list, so `key[]=v` appends in the order given on the command line.
  const fields: FieldFlag[] = [];
  const collect = (typed: boolean) => (pair: string) => {
    fields.push({ pair, typed });
    return fields;
  };
  command
    .argument('<method>', `HTTP method: ${METHODS.join(', ')}`)
    .argument('<path>', 'Path under the profile\'s base URL, e.g. /v1/customers')
    .option('-f, --raw-field <key=value>', 'A string field (a query parameter for GET); repeatable; dotted keys nest, key[]=v appends', collect(false))
    .option('-F, --field <key=value>', 'A typed field: true, false, null and whole numbers as JSON, @file a file\'s contents, @- stdin, else a string; repeatable', collect(true))
    .option('--data-json <json>', 'The whole body as JSON')
    .option('--idempotency-key <key>', 'Send this Idempotency-Key (to replay a write deliberately)')
    .action(async (method: string, path: string, flags: { dataJson?: string; idempotencyKey?: string }) =>
      run({ method, path, fields, dataJson: flags.dataJson, idempotencyKey: flags.idempotencyKey }, f),
    );
  withExamples(
    command,
    'pay api GET /v1/customers -F limit=3',
    'pay api POST /v1/customers -f email=jenny@example.com -f metadata.plan=gold',
    'pay api POST /v1/payment-methods -f type=card -f card.number=4242424242424242 -F card.exp_month=12 -F card.exp_year=2034 -f card.cvc=123',
    'pay api POST /v1/payment-intents --data-json \'{"amount":1099,"currency":"usd","payment_method_types":["card"]}\'',
  );
}

const flagName = (field: FieldFlag) => (field.typed ? '-F' : '-f');

/** A `-F` value as `gh api` types it; `@file` and `@-` (stdin, once) are read. */
async function typedValue(key: string, value: string, f: Factory, stdin: { used: boolean }): Promise<unknown> {
  if (value === 'true' || value === 'false') return value === 'true';
  if (value === 'null') return null;
  if (/^-?\d+$/.test(value)) {
    const number = Number(value);
    if (!Number.isSafeInteger(number)) throw new UsageError(`Invalid -F '${key}': ${value.length} digits do not fit a JSON number exactly; send it as a string with -f.`);
    return number;
  }
  if (value === '@-') {
    if (stdin.used) throw new UsageError(`Invalid -F '${key}=@-': stdin can be read only once.`);
    stdin.used = true;
    return f.io.readStdin();
  }
  if (value.startsWith('@')) {
    const { readFile } = await import('node:fs/promises');
    try {
      return await readFile(value.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(`Invalid -F '${key}=${value}': cannot read ${value.slice(1)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
  }
  return value;
}

export async function run(options: ApiOptions, f: Factory): Promise<void> {
  const method = options.method.toUpperCase();
  if (!METHODS.includes(method)) throw new UsageError(`Invalid <method> '${options.method}': use one of ${METHODS.join(', ')}.`);
  // Before the profile is read or a sandbox started; the client checks it again against the base URL.
  checkPath(options.path);
  if (options.dataJson !== undefined && options.fields.length > 0) throw new UsageError('Use -f/-F or --data-json, not both.');
  if (options.dataJson !== undefined && method === 'GET') throw new UsageError('Invalid --data-json: a GET sends no body; give query parameters with -f/-F.');
  const stdin = { used: false };
  const fields: Array<[string, unknown]> = [];
  for (const field of options.fields) {
    const [key, value] = splitPair(field.pair, flagName(field));
    fields.push([key, field.typed ? await typedValue(key, value, f, stdin) : value]);
  }
  let body: unknown;
  if (options.dataJson !== undefined) {
    try {
      body = JSON.parse(options.dataJson);
    } catch (error) {
      throw new UsageError(`Invalid --data-json: ${(error as Error).message}.`);
    }
  } else if (fields.length > 0 && method !== 'GET') {
    body = bodyFromFields(fields);
  }
  const client = await f.client();
  const response = await client.raw(method, options.path, {
    body,
    // For GET the fields are the query, names as written (`status=active`, `ids[]=a`).
    query: method === 'GET' ? fields.map(([key, value]): [string, string] => [key, value === null ? '' : String(value)]) : undefined,
    idempotencyKey: options.idempotencyKey,
  });
  if (response.body !== undefined) f.io.printJSON(response.body);
  if (response.headers['idempotent-replayed']) f.io.info('(replayed: the service answered with the first response to this Idempotency-Key)');
  if (response.status >= 400) {
    // The body is already on stdout as data; main reports the error and maps the exit code.
    const { toApiError } = await import('../../../client/client.js');
    throw toApiError(response);
  }
}
