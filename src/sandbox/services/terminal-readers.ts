import type { ListQuery } from '../../domain/common.js';
import { ApiError, invalid } from '../../domain/errors.js';
import { randomToken } from '../../domain/ids.js';
import type { ActivationCode, Processor, ReaderActivate, ReaderModel, TerminalReader } from '../../domain/terminal-readers.js';
import type { ReaderAction } from '../hub/readers.js';
import type { ServiceContext } from './context.js';

const CODE_TTL_MS = 24 * 60 * 60 * 1000;

/** A stored reader has no status: online/offline is the live connection, read at answer time. */
type StoredReader = Omit<TerminalReader, 'status'>;

export function withStatus(ctx: ServiceContext, reader: StoredReader): TerminalReader {
  return { ...reader, status: ctx.readers.isOnline(ctx.account.id, reader.id) ? 'online' : 'offline' };
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
    expires_at: new Date(Date.parse(ctx.now) + CODE_TTL_MS).toISOString().replace(/\.000Z$/, 'Z'),
    used_by: null,
  });
}

export function activateReader(ctx: ServiceContext, input: ReaderActivate): TerminalReader {
  const code = ctx.list<ActivationCode>('terminal_activation_code', { limit: 1, filters: { code: input.activation_code.toUpperCase() } }).data[0];
  if (!code) throw invalid('activation_code', 'Invalid activation_code: no such code on this account. Request one with POST /v1/terminal-readers/activation-codes.');
  if (code.used_by !== null) throw invalid('activation_code', `Invalid activation_code: it was already used to activate ${code.used_by}. Request a new code.`);
  if (Date.parse(code.expires_at) <= Date.parse(ctx.now)) throw invalid('activation_code', `Invalid activation_code: it expired at ${code.expires_at}. Request a new code.`);
  const existing = ctx.list<TerminalReader>('terminal_reader', { limit: 1, filters: { serial_number: input.serial_number } }).data[0];
  if (existing) throw new ApiError(409, 'invalid_state', `Reader ${input.serial_number} is already activated on this account as ${existing.id}.`);
  const reader = registerReader(ctx, { serial_number: input.serial_number, processor: input.processor, model: input.model, label: input.label, device_type: 'self_owned' });
  ctx.update<ActivationCode>({ ...code, used_by: reader.id });
  return reader;
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

export function setReaderAction(ctx: ServiceContext, reader: TerminalReader, action: TerminalReader['action']): void {
  const { status: _status, ...stored } = reader;
  ctx.update<StoredReader>({ ...stored, action });
}

/** Pushes an action to the reader once the change that asked for it has committed. */
export function pushToReader(ctx: ServiceContext, readerId: string, action: ReaderAction): void {
  const account = ctx.account.id;
  ctx.afterCommit(() => ctx.readers.push(account, readerId, action));
}
