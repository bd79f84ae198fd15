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

// Random bytes are drawn 4 KiB at a time: one randomBytes call per id cost more than the
// rest of making the id, and a clock advance makes hundreds of thousands.
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let used = 0;

function random(length: number): Buffer {
  if (used + length > pool.length) {
    pool = randomBytes(Math.max(POOL_SIZE, length));
    used = 0;
  }
  used += length;
  return pool.subarray(used - length, used);
}

export function randomToken(length: number): string {
  const bytes = random(length);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

export function newId(kind: ObjectKind): string {
  return `${ID_PREFIX[kind]}_${randomToken(24)}`;
}
