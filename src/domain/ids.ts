import { randomBytes } from 'node:crypto';

/** Resource id prefixes (DESIGN.md section 4). */
export const ID_PREFIX = {
  payment_intent: 'pi',
  charge: 'ch',
  customer: 'cus',
  payment_method: 'pm',
  subscription: 'sub',
  terminal_reader: 'tmr',
  terminal_activation_code: 'tac',
  refund: 're',
  checkout_session: 'cs',
  payment_link: 'plink',
  webhook_endpoint: 'we',
  event: 'evt',
  account: 'acct',
} as const;

export type ObjectKind = keyof typeof ID_PREFIX;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

export function newId(kind: ObjectKind): string {
  return `${ID_PREFIX[kind]}_${randomToken(24)}`;
}
