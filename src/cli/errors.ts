/**
 * The CLI's typed errors. Commands throw them; `main.ts` alone maps them (and the
 * lower layers' own errors) to exit codes.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The user cancelled at a prompt, or interrupted. */
export class CancelError extends Error {
  override name = 'CancelError';
  constructor(message = 'Cancelled.') {
    super(message);
  }
}

/** A card was declined where the service answered with the declined object rather than a 402 (a reader's outcome, for a payment or a same-day refund): exit 6, as every decline. */
export class DeclinedError extends Error {
  override name = 'DeclinedError';
  constructor(
    message: string,
    /** The decline's own code (`card_not_supported`, `insufficient_funds`…), as a 402 would carry it. */
    readonly code: string,
    readonly paymentIntentId: string,
    /** A same-day refund the card refused on the reader. */
    readonly refundId?: string,
  ) {
    super(message);
  }
}

/** The local sandbox is not running where a command needs it (exit 7, as an unreachable service). */
export class NotRunningError extends Error {
  override name = 'NotRunningError';
}

/** The port asked for is taken by another program (exit 2; the JSON error's code `port_in_use` tells auto-start to take another). */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
  constructor(readonly port: number) {
    super(`Port ${port} is in use; choose another with --port N (or --port 0 for any free port).`);
  }
}

/** What a command needs is held by another running process, as a background sandbox found (exit 5, as a held lock). */
export class ConflictError extends Error {
  override name = 'ConflictError';
}

/** A background sandbox's own refusal (its port taken, its database in use…) is the error it was there. */
export function refusedStart(error: unknown): never {
  if (!(error instanceof Error) || error.name !== 'SandboxStartError') throw error;
  throw (error as Error & { code: string }).code === 'locked' ? new ConflictError(error.message) : new UsageError(error.message);
}

/** A batch finished with some items failed. */
export class PartialError extends Error {
  override name = 'PartialError';
}

/** A check the user asked for failed (listen --fail-on-error): exit 1, the message says what. */
export class CheckFailedError extends Error {
  override name = 'CheckFailedError';
}

/** A secret the service shows once was in an answer that never arrived: what was created cannot be used (exit 1). */
export class SecretLostError extends Error {
  override name = 'SecretLostError';
}

const HINTS = new WeakMap<Error, string>();

/**
 * The next step, in the CLI's words, for an error from below (the service's message
 * serves any client): main shows it under the message. Returns the error, to rethrow.
 */
export function withHint(error: unknown, hint: string): unknown {
  if (error instanceof Error) HINTS.set(error, hint);
  return error;
}

export const hintOf = (error: unknown): string | undefined => (error instanceof Error ? HINTS.get(error) : undefined);
