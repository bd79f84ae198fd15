import type { Command } from 'commander';
import { checkPath } from '../../../client/url.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { bodyFromPairs, withExamples } from '../../flags.js';

export interface ApiOptions {
  method: string;
  path: string;
  data: string[];
  dataJson?: string;
  idempotencyKey?: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

export function register(command: Command, f: Factory): void {
  command
    .argument('<method>', `HTTP method: ${METHODS.join(', ')}`)
    .argument('<path>', 'Path under the base URL, e.g. /v1/customers')
    .option('-d, --data <key=value>', 'A body field (query parameter for GET); repeatable; dotted keys nest, key[]=v appends', (v: string, prev: string[] = []) => [...prev, v])
    .option('--data-json <json>', 'The whole body as JSON')
    .option('--idempotency-key <key>', 'Send this Idempotency-Key (to replay a write deliberately)')
    .action(async (method: string, path: string, flags: Omit<ApiOptions, 'method' | 'path'>) =>
      run({ method, path, data: flags.data ?? [], dataJson: flags.dataJson, idempotencyKey: flags.idempotencyKey }, f),
    );
  withExamples(
    command,
    'pay api GET /v1/customers -d limit=3',
    'pay api POST /v1/customers -d email=jenny@example.com -d metadata.plan=gold',
    'pay api POST /v1/payment-intents --data-json \'{"amount":1099,"currency":"usd","payment_method_types":["card"]}\'',
  );
}

export async function run(options: ApiOptions, f: Factory): Promise<void> {
  const method = options.method.toUpperCase();
  if (!METHODS.includes(method)) throw new UsageError(`Invalid <method> '${options.method}': use one of ${METHODS.join(', ')}.`);
  // Before the profile is read or a sandbox started; the client checks it again against the base URL.
  checkPath(options.path);
  if (options.dataJson !== undefined && options.data.length > 0) throw new UsageError('Use --data or --data-json, not both.');
  let body: unknown;
  if (options.dataJson !== undefined) {
    try {
      body = JSON.parse(options.dataJson);
    } catch (error) {
      throw new UsageError(`Invalid --data-json: ${(error as Error).message}.`);
    }
  } else if (options.data.length > 0) {
    body = bodyFromPairs(options.data);
  }
  const client = await f.client();
  const isGet = method === 'GET';
  const response = await client.raw(method, options.path, {
    body: isGet ? undefined : body,
    query: isGet && body ? (Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])) as Record<string, string>) : undefined,
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
