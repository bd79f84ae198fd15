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

/** A batch finished with some items failed. */
export class PartialError extends Error {
  override name = 'PartialError';
}

/** A check the user asked for failed (listen --fail-on-error): exit 1, the message says what. */
export class CheckFailedError extends Error {
  override name = 'CheckFailedError';
}

