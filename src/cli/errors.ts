/**
 * The CLI's typed errors. Commands throw them; `main.ts` alone maps them (and the
 * service's ApiError) to exit codes.
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

/** Credentials missing or unusable before any request was made. */
export class AuthConfigError extends Error {
  override name = 'AuthConfigError';
}

/** A batch finished with some items failed. */
export class PartialError extends Error {
  override name = 'PartialError';
}

/** A check the user asked for failed (listen --fail-on-error): exit 1, the message says what. */
export class CheckFailedError extends Error {
  override name = 'CheckFailedError';
}

/** Already reported to the user; exit with the given code and print nothing more. */
export class SilentError extends Error {
  override name = 'SilentError';
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}
