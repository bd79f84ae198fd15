/** The service could not be reached (refused, timed out, reset) even after retries. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  constructor(message: string, readonly url: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A path that would leave the profile's service (another host, or above its base path): a usage error. */
export class PathError extends Error {
  override name = 'PathError';
}
