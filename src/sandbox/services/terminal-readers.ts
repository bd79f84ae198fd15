import type { ListQuery } from '../../domain/common.js';
import { ApiError, invalid } from '../../domain/errors.js';
import { randomToken } from '../../domain/ids.js';
import type { ActivationCode, Processor, ReaderActivate, ReaderModel, TerminalReader } from '../../domain/terminal-readers.js';
import type { ReaderAction, ReaderHello } from '../../domain/reader-protocol.js';
import { addMs, compareInstants, DAY_MS } from '../../infra/time.js';
import type { ServiceContext } from './context.js';

/** A stored reader has no status: online/offline is the live connection, read at answer time. */
type StoredReader = Omit<TerminalReader, 'status'>;

export function withStatus(ctx: ServiceContext, reader: StoredReader): TerminalReader {
  return { ...reader, status: ctx.env.readers.isOnline(ctx.account.id, reader.id) ? 'online' : 'offline' };
}

export const getReader = (ctx: ServiceContext, id: string, param = 'id'): TerminalReader =>
  withStatus(ctx, ctx.get<TerminalReader>('terminal_reader', id, param));

export function listReaders(ctx: ServiceContext, query: ListQuery & { processor?: Processor | undefined }) {
  const page = ctx.list<TerminalReader>('terminal_reader', { limit: query.limit, starting_after: query.starting_after, filters: { processor: query.processor } });
  return { ...page, data: page.data.map((r) => withStatus(ctx, r)) };
}

/** What support hands out for a self-owned reader (spec section 1, item 6). */
export function createActivationCode(ctx: ServiceContext): ActivationCode {
  const code = `${randomToken(4)}-${randomToken(4)}`.toUpperCase();
  return ctx.create<ActivationCode>('terminal_activation_code', {
    code,
    // A code is good for a day of test-clock time.
    expires_at: addMs(ctx.now, DAY_MS),
    used_by: null,
  });
}

const activationCode = (ctx: ServiceContext, code: string) =>
  ctx.list<ActivationCode>('terminal_activation_code', { limit: 1, filters: { code: code.toUpperCase() } }).data[0];

export function activateReader(ctx: ServiceContext, input: ReaderActivate): TerminalReader {
  const code = activationCode(ctx, input.activation_code);
  if (!code) throw invalid('activation_code', 'Invalid activation_code: no such code on this account. Request one with POST /v1/terminal-readers/activation-codes.');
  if (code.used_by !== null) throw invalid('activation_code', `Invalid activation_code: it was already used to activate ${code.used_by}. Request a new code.`);
  if (compareInstants(code.expires_at, ctx.now) <= 0) throw invalid('activation_code', `Invalid activation_code: it expired at ${code.expires_at}. Request a new code.`);
  const existing = readerBySerial(ctx, input.serial_number);
  if (existing) throw new ApiError(409, 'invalid_state', `Reader ${input.serial_number} is already activated on this account as ${existing.id}.`);
  const reader = registerReader(ctx, { serial_number: input.serial_number, processor: input.processor, model: input.model, label: input.label, device_type: 'self_owned' });
  ctx.update<ActivationCode>({ ...code, used_by: reader.id });
  return reader;
}

const readerBySerial = (ctx: ServiceContext, serial: string) =>
  ctx.list<StoredReader>('terminal_reader', { limit: 1, filters: { serial_number: serial } }).data[0];

/**
 * The reader a device connecting to the reader hub is (its hello): the account's reader
 * of that id or serial number; a serial the account does not know is a newly ordered
 * developer reader (they arrive activated), or, with an activation code, a self-owned one.
 */
export function identifyReader(ctx: ServiceContext, hello: ReaderHello): TerminalReader {
  const { serial_number, processor, model, label, activation_code } = hello;
  const known = hello.terminal_reader_id === undefined ? readerBySerial(ctx, serial_number) : ctx.get<StoredReader>('terminal_reader', hello.terminal_reader_id, 'terminal_reader_id');
  // The reader a code activated, connecting with it again (the same simulator command run again), is that reader.
  if (activation_code !== undefined && (!known || activationCode(ctx, activation_code)?.used_by !== known.id)) {
    return activateReader(ctx, { activation_code, serial_number, processor, model, label });
  }
  if (!known) return registerReader(ctx, { serial_number, processor, model, label, device_type: 'developer' });
  for (const field of ['serial_number', 'processor', 'model'] as const) {
    if (known[field] !== hello[field]) throw invalid(field, `Invalid ${field}: reader ${known.id} has ${field} ${known[field]}, not ${hello[field]}.`);
  }
  return withStatus(ctx, label === undefined || label === known.label ? known : ctx.update<StoredReader>({ ...known, label }));
}

/**
 * Associates a serial number with the account. Ordered developer readers arrive
 * activated: the reader hub calls this when a simulator registers itself.
 */
export function registerReader(
  ctx: ServiceContext,
  input: { serial_number: string; processor: Processor; model: ReaderModel; label?: string | undefined; device_type: TerminalReader['device_type'] },
): TerminalReader {
  const reader = ctx.create<StoredReader>('terminal_reader', {
    serial_number: input.serial_number,
    processor: input.processor,
    model: input.model,
    label: input.label ?? `${input.model} ${input.serial_number}`,
    device_type: input.device_type,
    activated_at: ctx.now,
    action: null,
  });
  return withStatus(ctx, reader);
}

/**
 * A reader works on one payment or refund at a time: the refusal names what it waits
 * for, and how to free it (a payment can be canceled; a refund waits for the customer).
 */
export function readerBusy(reader: TerminalReader & { action: NonNullable<TerminalReader['action']> }): ApiError {
  const { action } = reader;
  const what =
    action.type === 'refund_payment'
      ? `refund ${action.refund_id} of payment intent ${action.payment_intent_id}; retry once the customer has confirmed or declined it on the reader`
      : `payment intent ${action.payment_intent_id}; cancel that intent or wait for it to finish`;
  return new ApiError(409, 'terminal_reader_busy', `Terminal reader ${reader.id} is busy with ${what}.`);
}

export function setReaderAction(ctx: ServiceContext, reader: TerminalReader, action: TerminalReader['action']): void {
  const { status: _status, ...stored } = reader;
  ctx.update<StoredReader>({ ...stored, action });
}

/** Pushes an action to the reader once the change that asked for it has committed. */
export function pushToReader(ctx: ServiceContext, readerId: string, action: ReaderAction): void {
  const account = ctx.account.id;
  ctx.afterCommit(() => ctx.env.readers.push(account, readerId, action));
}
