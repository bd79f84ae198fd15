/** A profile that is unknown or holds a bad value, or a config file that cannot be read as one: the user's to fix (exit 2). */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Credentials missing before any request was made (exit 3). */
export class CredentialsError extends Error {
  override name = 'CredentialsError';
}
