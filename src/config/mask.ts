/** A secret as it may be shown anywhere: its first 8 characters and last 4 at most. */
export function maskSecret(secret: string): string {
  if (secret.length >= 20) return `${secret.slice(0, 8)}…${secret.slice(-4)}`;
  if (secret.length >= 8) return `${secret.slice(0, 3)}…${secret.slice(-2)}`;
  return '…';
}

/** Secrets: shown as maskSecret shows keys. */
const SECRET_FIELDS = new Set(['api_key', 'secret']);
/** Card data: the last 4 digits of a number at most, nothing of a security code. */
const CARD_NUMBER_FIELDS = new Set(['number', 'card_number']);

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (typeof v !== 'string') return [key, redact(v)];
      if (SECRET_FIELDS.has(key)) return [key, maskSecret(v)];
      if (CARD_NUMBER_FIELDS.has(key)) return [key, `…${v.replace(/\D/g, '').slice(-4)}`];
      return [key, key === 'cvc' ? '…' : v];
    }),
  );
}

/** A JSON body as a trace may show it: keys, secrets and card data masked; text that is not JSON as it is. */
export function redactBody(text: string): string {
  try {
    return JSON.stringify(redact(JSON.parse(text)));
  } catch {
    return text;
  }
}
