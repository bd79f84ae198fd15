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

/** A secret as it may be shown anywhere: its first 8 characters and last 4 at most. */
export function maskSecret(secret: string): string {
  if (secret.length >= 20) return `${secret.slice(0, 8)}…${secret.slice(-4)}`;
  if (secret.length >= 8) return `${secret.slice(0, 3)}…${secret.slice(-2)}`;
  return '…';
}

/**
 * Text with every secret of the service's own shapes in it (`sk_…` API keys, `whsec_…`
 * signing secrets) shown as maskSecret shows it: for what echoes what was typed, a key
 * put where it does not belong (a positional argument, a flag that takes no value, an id).
 */
export function maskSecretTokens(text: string): string {
  return text.replace(new RegExp(SECRET_TOKEN.source, 'g'), maskSecret);
}

/** The shapes of the service's own secrets: `sk_…` API keys, `whsec_…` signing secrets. */
const SECRET_TOKEN = /\b(?:sk|whsec)_[A-Za-z0-9_+/=-]{12,}/;
export const looksLikeSecret = (text: string) => SECRET_TOKEN.test(text);
