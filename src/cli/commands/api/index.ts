import type { Command } from 'commander';
import { checkPath } from '../../../client/url.js';
import { arg, defineCommand, flag, type OptionsOf } from '../../command.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { bodyFromFields, splitPair } from '../../flags.js';

/** A `-f` (string) or `-F` (typed) field, with where it came on the command line. */
export interface FieldFlag {
  pair: string;
  typed: boolean;
  at: number;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

// -f and -F are two flags feeding one body: each value keeps its place on the line, so
// `key[]=v` appends in the order given whichever flag gave it.
let given = 0;
const fieldFlag = (typed: boolean) => (pair: string): FieldFlag => ({ pair, typed, at: given++ });

// gh api's form too: the path alone, the method from -X, else GET, or POST once fields are given.
const args = {
  method: arg.optional('[method]', `HTTP method: ${METHODS.join(', ')}; may be left out, as in gh api (-X, else GET, or POST with fields)`),
  path: arg.optional('[path]', 'Path under the profile\'s base URL, e.g. /v1/customers'),
};
const flags = {
  methodFlag: flag.string('-X, --method <method>', `HTTP method, as gh api takes it: ${METHODS.join(', ')} (default: GET, or POST when fields are given)`),
  rawField: flag.repeated('-f, --raw-field <key=value>', 'A string field (a query parameter for GET); repeatable; key.sub=v and key[sub]=v nest, key[]=v appends', fieldFlag(false)),
  field: flag.repeated('-F, --field <key=value>', 'A typed field: true, false, null and whole numbers as JSON, @file a file\'s contents, @- stdin, else a string; repeatable', fieldFlag(true)),
  dataJson: flag.string('--data-json <json>', 'The whole body as JSON'),
  idempotencyKey: flag.string('--idempotency-key <key>', 'Send this Idempotency-Key (to replay a write deliberately)'),
  header: flag.repeated('-H, --header <name:value>', 'Add a request header, as gh api takes it (repeatable); -H \'Idempotency-Key: k\' is --idempotency-key k'),
};
export type ApiOptions = OptionsOf<typeof args, typeof flags>;

const api = defineCommand({
  name: 'api',
  description: 'Send a raw request to the service with your profile\'s auth',
  args,
  flags,
  examples: [
    'pay api GET /v1/customers -F limit=3',
    'pay api /v1/customers -f email=jenny@example.com      # as gh api: GET, or POST with fields; -X sets the method',
    'pay api POST /v1/customers -f email=jenny@example.com -f metadata.plan=gold',
    'pay api POST /v1/payment-methods -f type=card -f card.number=4242424242424242 -F card.exp_month=12 -F card.exp_year=2034 -f card.cvc=123',
    'pay api POST /v1/payment-intents --data-json \'{"amount":1099,"currency":"usd","payment_method_types":["card"]}\'',
    'pay api GET /v1/customers/cus_123 --json id,email   # only these fields of the answer',
    'pay api POST /v1/customers -f email=jenny@example.com -H \'Idempotency-Key: signup-42\'   # again: the first answer, replayed',
  ],
  help: '\nThe answer\'s body is printed as JSON on stdout, an error\'s too (whole, whatever --json fields asks).\n',
  run: (options, f) => run(options, f),
});

/** `pay api` is a noun that is itself the command. */
export const register = (command: Command, f: Factory) => void api.configure(command, f).usage('[options] [method] <path>');

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

/** The method and path of either form: `<method> <path>`, or gh api's `<path>` with `-X`. */
function methodAndPath(options: ApiOptions): [method: string, path: string] {
  const given = options.path === undefined ? options.methodFlag : options.method;
  // One word is the path (gh api's form); a method alone, or nothing, lacks it.
  const path = options.path ?? options.method;
  if (path === undefined || (options.path === undefined && METHODS.includes(path.toUpperCase()))) throw new UsageError('Missing <path>: it is required, e.g. /v1/customers.');
  if (given !== undefined && !METHODS.includes(given.toUpperCase())) throw new UsageError(`Invalid ${options.path === undefined ? '--method' : '<method>'} '${given}': use one of ${METHODS.join(', ')}.`);
  if (options.path !== undefined && options.methodFlag !== undefined && options.methodFlag.toUpperCase() !== given!.toUpperCase()) {
    throw new UsageError(`Two methods: '${options.method}' and -X '${options.methodFlag}'. Give one.`);
  }
  const hasFields = options.rawField !== undefined || options.field !== undefined || options.dataJson !== undefined;
  return [given?.toUpperCase() ?? (hasFields ? 'POST' : 'GET'), path];
}

/** The framing and target of a request: undici and the profile's base URL decide them, never a header. */
const CLIENT_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

/** `-H 'Name: value'` pairs as headers by lowercase name; an Idempotency-Key among them is kept apart, as --idempotency-key. */
function headersOf(pairs: string[]): { headers: Record<string, string>; idempotencyKey?: string } {
  const headers: Record<string, string> = {};
  for (const pair of pairs) {
    const colon = pair.indexOf(':');
    const name = pair.slice(0, colon).trim();
    const value = pair.slice(colon + 1).trim();
    if (colon <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n\0]/.test(value)) {
      // Not echoed: a malformed header may well be a secret (Authorization Bearer …).
      throw new UsageError(`Invalid -H: expected name:value, e.g. -H 'Accept-Language: fr'.`);
    }
    if (CLIENT_HEADERS.has(name.toLowerCase())) throw new UsageError(`Invalid -H '${name}': pay sets ${name} itself.`);
    headers[name.toLowerCase()] = value;
  }
  const { 'idempotency-key': idempotencyKey, ...rest } = headers;
  return { headers: rest, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) };
}

export async function run(options: ApiOptions, f: Factory): Promise<void> {
  const [method, path] = methodAndPath(options);
  // Before the profile is read or a sandbox started; the client checks it again against the base URL.
  checkPath(path);
  const { headers, idempotencyKey: keyHeader } = headersOf(options.header ?? []);
  if (keyHeader !== undefined && options.idempotencyKey !== undefined) throw new UsageError('-H Idempotency-Key and --idempotency-key cannot be used together: choose one.');
  const idempotencyKey = options.idempotencyKey ?? keyHeader;
  if (idempotencyKey !== undefined) {
    // The service's rule, loaded only when a key is given (it brings zod); undici would refuse such a key only as the request is made.
    const { IDEMPOTENCY_KEY_RULE, IdempotencyKey } = await import('../../../domain/common.js');
    const given = keyHeader === undefined ? '--idempotency-key' : '-H Idempotency-Key';
    if (!IdempotencyKey.safeParse(idempotencyKey).success) throw new UsageError(`Invalid ${given}: ${IDEMPOTENCY_KEY_RULE}.`);
  }
  const given = [...(options.rawField ?? []), ...(options.field ?? [])].sort((x, y) => x.at - y.at);
  if (options.dataJson !== undefined && given.length > 0) throw new UsageError('Use -f/-F or --data-json, not both.');
  if (options.dataJson !== undefined && method === 'GET') throw new UsageError('Invalid --data-json: a GET sends no body; give query parameters with -f/-F.');
  const stdin = { used: false };
  const fields: Array<[string, unknown]> = [];
  for (const field of given) {
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
  const response = await client.raw(method, path, {
    body,
    // For GET the fields are the query, names as written (`status=active`, `ids[]=a`).
    query: method === 'GET' ? fields.map(([key, value]): [string, string] => [key, value === null ? '' : String(value)]) : undefined,
    idempotencyKey,
    headers,
  });
  const failed = response.status >= 400;
  // An error body is printed whole: a field list names fields of the answer asked for.
  if (response.body !== undefined && !failed) f.io.allowFieldsOf(response.body);
  if (response.body !== undefined) f.io.printJSON(response.body, { whole: failed });
  if (response.headers['idempotent-replayed']) f.io.info('(replayed: the service answered with the first response to this Idempotency-Key)');
  if (failed) {
    // The body is already on stdout as data; main reports the error and maps the exit code.
    const { toApiError } = await import('../../../client/api-error.js');
    throw toApiError(response);
  }
}
