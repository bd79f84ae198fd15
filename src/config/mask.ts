import { maskSecret } from '../domain/secrets.js';

/** Headers that carry a secret (the profile's `<prefix>-api-key`, a caller's Authorization): shown as maskSecret shows keys. */
export const isSecretHeader = (name: string) => /^((proxy-)?authorization|cookie)$|(^|-)(api-?key|secret|token|password)$/i.test(name);

/** Keys, secrets and tokens: shown as maskSecret shows keys. */
const SECRET_NAME = /(^|_)(api_?key|secret|token|password)$/;
/** Card numbers: the last 4 digits at most. */
const CARD_NUMBER_NAME = /^(card_)?number$/;
/** Security codes: nothing at all. */
const CVC_NAME = /^(cvc|cvv|cvc2|cvv2|csc|security_code)$/;

/**
 * What a trace may show of a field, by the field's name (the last part of `card.number`
 * or `card[number]`), whatever the value's type: `-F card.cvc=654` makes a number of it.
 */
function redactField(name: string, value: unknown): unknown {
  const last = name.toLowerCase().split(/[.[\]]+/).filter(Boolean).at(-1) ?? '';
  if (value === null || value === undefined) return value;
  const scalar = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  if (CVC_NAME.test(last)) return '…';
  if (CARD_NUMBER_NAME.test(last)) return scalar ? `…${String(value).replace(/\D/g, '').slice(-4)}` : '…';
  if (SECRET_NAME.test(last)) return scalar ? maskSecret(String(value)) : '…';
  return redact(value);
}

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, redactField(key, v)]));
}

/** A JSON body as a trace may show it: keys, secrets and card data masked; text that is not JSON as it is. */
export function redactBody(text: string): string {
  try {
    return JSON.stringify(redact(JSON.parse(text)));
  } catch {
    return text;
  }
}

/**
 * A path or URL as typed, as an error may quote it: a user and password before the host
 * masked whole, query parameters masked by name as a trace masks them.
 */
export function redactTypedUrl(text: string): string {
  const at = text.indexOf('?');
  const head = (at === -1 ? text : text.slice(0, at)).replace(/^([a-z][a-z0-9+.-]*:(?:\/\/)?)[^/?#]*@/i, '$1…@');
  if (at === -1) return head;
  const query = text.slice(at + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq === -1) return pair;
    const value = pair.slice(eq + 1);
    const shown = redactField(pair.slice(0, eq), value);
    return shown === value ? pair : `${pair.slice(0, eq)}=${String(shown)}`;
  });
  return `${head}?${query.join('&')}`;
}

/** A URL as a trace may show it: query parameters masked by name as body fields are. */
export function redactUrl(url: URL): string {
  const pairs = [...url.searchParams];
  if (pairs.every(([name, value]) => redactField(name, value) === value)) return url.href;
  const query = pairs.map(([name, value]) => {
    const shown = redactField(name, value);
    return `${encodeURIComponent(name)}=${shown === value ? encodeURIComponent(value) : String(shown)}`;
  });
  return `${url.origin}${url.pathname}?${query.join('&')}${url.hash}`;
}
