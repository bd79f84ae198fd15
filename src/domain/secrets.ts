/**
 * A secret the service mints (a new account's API key, a webhook endpoint's signing
 * secret) is in the first response only. A replay of that request (same
 * Idempotency-Key) holds this marker in its place and names the field in the
 * `Idempotent-Redacted` header: stored responses never hold a secret.
 */
export const SHOWN_ONCE = '[redacted: shown once, in the first response]';
export const REDACTED_HEADER = 'Idempotent-Redacted';
