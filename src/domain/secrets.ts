/**
 * A secret the service mints (a new account's API key, a webhook endpoint's signing
 * secret) is in the first response only. A replay of that request (same
 * Idempotency-Key) holds this marker in its place and names the field in the
 * `Idempotent-Redacted` header: stored responses never hold a secret.
 */
export const SHOWN_ONCE = '[redacted: shown once, in the first response]';
export const REDACTED_HEADER = 'Idempotent-Redacted';

/** What an API key is made of: what can go in a header (a key pasted with its line break could never be sent). */
export const API_KEY_CHARACTERS = /^[\x21-\x7e]+$/;
export const API_KEY_CHARACTERS_RULE = 'must be printable characters, without spaces or line breaks';
