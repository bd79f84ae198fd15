import type { z } from 'zod';
import { maskCardNumbers } from './cards.js';
import { maskSecretTokens } from './secrets.js';
import type { ErrorBody } from './error-body.js';

export type { ErrorBody };

/** One error type per HTTP status (DESIGN.md section 4). */
export const ERROR_TYPES = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'card_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'state_error',
  413: 'invalid_request_error',
  414: 'invalid_request_error',
  422: 'idempotency_error',
  429: 'rate_limit_error',
  431: 'invalid_request_error',
  500: 'api_error',
} as const;

export type ErrorStatus = keyof typeof ERROR_TYPES;

/** At most this much of what a request sent is echoed in an error (DESIGN section 4). */
export const ECHO_LIMIT = 40;
/** A value from the request, cut to a short prefix for an error message; a card number in it shows its last 4 digits only, a key its first 8 and last 4 characters. */
export const clip = (value: string) => {
  const text = maskSecretTokens(maskCardNumbers(value));
  return text.length <= ECHO_LIMIT ? text : `${text.slice(0, ECHO_LIMIT)}…`;
};

export interface ApiErrorInit {
  param?: string;
  /** Headers of the answer, e.g. Retry-After. */
  headers?: Record<string, string>;
  /** Extra members of the error body, e.g. the declined `payment_intent`. */
  extra?: Record<string, unknown>;
  /** A declined payment attempt is not a rejected request: its changes are kept. */
  commit?: boolean;
}

/** An error of the service, in the shape of its body: `{error: {type, code, message, param?}}`. */
export class ApiError extends Error {
  readonly type: string;
  readonly param: string | undefined;
  readonly extra: Record<string, unknown>;
  readonly commit: boolean;
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    init: ApiErrorInit = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.type = ERROR_TYPES[status as ErrorStatus] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    this.param = init.param;
    this.extra = init.extra ?? {};
    this.commit = init.commit ?? false;
    this.headers = init.headers ?? {};
  }

  toBody(): ErrorBody {
    return {
      error: {
        type: this.type,
        code: this.code,
        message: this.message,
        ...(this.param === undefined ? {} : { param: this.param }),
        ...this.extra,
      },
    };
  }
}

export const invalid = (param: string, message: string) =>
  new ApiError(400, 'parameter_invalid', message, { param });
export const missing = (param: string, message = `${param} is required.`) =>
  new ApiError(400, 'parameter_missing', message, { param });
export const immutable = (param: string, rule = 'is immutable after creation.') =>
  new ApiError(400, 'parameter_immutable', `${param} ${rule}`, { param });
export const notFound = (kind: string, id: string, param = 'id') =>
  new ApiError(404, 'resource_missing', `No such ${kind}: '${clip(id)}'.`, { param });
export const invalidState = (kind: string, id: string, status: string, action: string) =>
  new ApiError(409, 'invalid_state', `Cannot ${action} ${kind} ${id}: its status is ${status}.`);

/** DESIGN section 4: an Idempotency-Key used before with another request. */
export const idempotencyKeyReused = (key: string) =>
  new ApiError(422, 'idempotency_key_reused', `Idempotency-Key '${clip(key)}' was already used with a different request; use a new key for a new request.`);

/**
 * An issue for a field that a rule makes required (e.g. payment_method_id with
 * confirm=true): reported like a missing field, `parameter_missing`.
 */
export const requiredIssue = (path: Array<string | number>, message: string) =>
  ({ code: 'custom', path, message, params: { missing: true } }) as const;

/**
 * Two fields of which one is given, given neither or both: the issue names the pair
 * (`params.pair`), so the service words it by field and the CLI by flag.
 */
export const neitherIssue = (pair: readonly [string, string], message = `give one of ${pair[0]} or ${pair[1]}`) =>
  ({ code: 'custom' as const, path: [pair[0]], message, params: { missing: true, pair } });
export const bothIssue = (pair: readonly [string, string], message = `give ${pair[0]} or ${pair[1]}, not both`) =>
  ({ code: 'custom' as const, path: [pair[1]], message, params: { pair } });

/** The two fields of a neitherIssue or bothIssue. */
export const pairOf = (issue: z.core.$ZodIssue): readonly [string, string] | undefined =>
  issue.code === 'custom' ? (issue.params?.pair as readonly [string, string] | undefined) : undefined;

/** True when an issue is about an absent field (absent input, of any type or choice, or a requiredIssue). */
export function isMissingIssue(issue: z.core.$ZodIssue): boolean {
  const absent = (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union') && issue.input === undefined;
  // A discriminated union's issue carries the whole object: its discriminator is what may be absent.
  const discriminator = issue.code === 'invalid_union' && 'discriminator' in issue ? (issue.discriminator as string) : undefined;
  const noDiscriminator = discriminator !== undefined && (issue.input as Record<string, unknown> | undefined)?.[discriminator] === undefined;
  return absent || noDiscriminator || (issue.code === 'custom' && issue.params?.missing === true);
}

/** A key of a record (metadata) breaking its rule: the issue of that rule, whose message is the key's own. */
export const keyIssueOf = (issue: z.core.$ZodIssue): z.core.$ZodIssue | undefined => (issue.code === 'invalid_key' ? issue.issues[0] : undefined);

/**
 * Turns a zod issue into the service's 400: `param` is the dotted path of the field, the
 * code says missing, unknown or invalid, the message states the rule. An unknown field
 * comes first (a misspelt or guessed name is also a missing one, and the name is what to
 * fix), with the fields its object takes when the schema is given; else the first issue.
 */
export function fromZodError(error: z.ZodError, schema?: z.ZodType, input?: unknown): ApiError {
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  if (!issue) return new ApiError(400, 'parameter_invalid', 'The request is invalid.');
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const param = clip([...path, issue.keys[0] ?? ''].join('.'));
    const fields = schema && fieldsAt(schema, input, path);
    const takes = fields ? ` ${path.length === 0 ? 'This request' : clip(path.join('.'))} takes: ${fields.join(', ')}.` : '';
    return new ApiError(400, 'parameter_unknown', `Received unknown parameter: ${param}.${takes}`, { param });
  }
  // An empty key's param is the record's.
  const keyIssue = keyIssueOf(issue);
  const param = clip((keyIssue && path.at(-1) === '' ? path.slice(0, -1) : path).join('.'));
  if (issue.code === 'custom' && issue.params?.immutable === true) return immutable(param, `${issue.message}.`);
  if (isMissingIssue(issue)) {
    // A field a rule makes required says which rule.
    return missing(param || 'body', `Missing required parameter: ${param || 'body'}${issue.code === 'custom' ? `: ${issue.message}` : ''}.`);
  }
  const subject = param === '' ? 'The request body' : param;
  return invalid(param || 'body', `Invalid ${subject}: ${(keyIssue ?? issue).message}`);
}

/** Parses with a domain schema; a failure becomes the service's 400. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw fromZodError(result.error, schema, input);
  return result.data;
}

/** The fields an object schema takes for this value: an object's, or those of the union's option its discriminator picks. */
export function shapeFor(schema: z.ZodType, value: unknown): Record<string, z.ZodType> | undefined {
  if ('shape' in schema) return schema.shape as Record<string, z.ZodType>;
  const { discriminator, options } = schema.def as { discriminator?: string; options?: z.ZodType[] };
  if (discriminator === undefined || options === undefined) return undefined;
  const shapes = options.map((option) => ('shape' in option ? (option.shape as Record<string, z.ZodType>) : undefined));
  return shapes.find((shape) => shape?.[discriminator]?.safeParse(fieldOf(value, discriminator)).success);
}

/** The field names the object at `path` in the schema takes (optional and nullable ones seen through). */
function fieldsAt(schema: z.ZodType, input: unknown, path: readonly string[]): string[] | undefined {
  let at: z.ZodType | undefined = schema;
  let value = input;
  for (const key of path) {
    at = shapeFor(unwrapped(at), value)?.[key];
    if (at === undefined) return undefined;
    value = fieldOf(value, key);
  }
  const shape = shapeFor(unwrapped(at), value);
  return shape && fieldsTaken(shape);
}

/** The fields of a shape a request may give: one named only to be refused as immutable (meta immutable) is not one. */
export function fieldsTaken(shape: Record<string, z.ZodType>): string[] {
  return Object.keys(shape).filter((key) => unwrapped(shape[key]!).meta()?.immutable !== true);
}

const fieldOf = (value: unknown, key: string): unknown => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined);

function unwrapped(schema: z.ZodType): z.ZodType {
  let at = schema;
  while ('innerType' in at.def) at = at.def.innerType as z.ZodType;
  return at;
}
