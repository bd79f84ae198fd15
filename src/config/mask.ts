/** A secret as it may be shown anywhere: its first 8 characters and last 4 at most. */
export function maskSecret(secret: string): string {
  if (secret.length >= 20) return `${secret.slice(0, 8)}…${secret.slice(-4)}`;
  if (secret.length >= 8) return `${secret.slice(0, 3)}…${secret.slice(-2)}`;
  return '…';
}

/** Fields whose values are secrets wherever they appear in a request or response body. */
const SECRET_FIELDS = new Set(['api_key', 'secret', 'number', 'cvc']);

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, SECRET_FIELDS.has(key) && typeof v === 'string' ? maskSecret(v) : redact(v)]),
  );
}

/** A JSON body as it may be traced: secret fields masked; text that is not JSON as it is. */
export function redactBody(text: string): string {
  try {
    return JSON.stringify(redact(JSON.parse(text)));
  } catch {
    return text;
  }
}
