import { LockedError } from '../infra/pid-lock.js';

/** `listen` cannot run as asked (no saved profile to keep its secret in): the user's to fix (exit 2). */
export class ListenError extends Error {
  override name = 'ListenError';
}

/**
 * Another `listen` of the profile holds its spool's lock: a conflict (exit 5, as any held
 * lock), naming its pid. Two would each forward every event.
 */
export class ListenerRunningError extends LockedError {
  override name = 'ListenerRunningError';

  constructor(locked: LockedError, advice = 'stop it first, or use another profile.') {
    super(locked.path, locked.pid);
    this.message = `Another pay webhooks listen for this profile is running (pid ${locked.pid}): ${advice}`;
  }
}
