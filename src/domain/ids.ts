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

/** The form of an id with this prefix: the prefix, an underscore, then letters and digits. */
export const idPattern = (prefix: string) => new RegExp(`^${prefix}_[A-Za-z0-9]+$`);

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

/** Characters of a stored id that name its row; the 18 random ones after them keep it unguessable (hosted pages' ids are capabilities). */
const SEQ_CHARS = 6;

/**
 * The id of the stored row `seq` (objects and events): its row number in base 62, then
 * random characters. Looking one up is a primary-key read, with no index of ids to
 * keep, and ids sort by creation.
 */
export function rowId(kind: ObjectKind, seq: number): string {
  if (!Number.isSafeInteger(seq) || seq < 0 || seq >= 62 ** SEQ_CHARS) throw new RangeError(`row ${seq} has no id`);
  let digits = '';
  for (let rest = seq; digits.length < SEQ_CHARS; rest = Math.floor(rest / 62)) digits = ALPHABET[rest % 62] + digits;
  return `${ID_PREFIX[kind]}_${digits}${randomToken(24 - SEQ_CHARS)}`;
}

/** The row an id made by rowId names; for any other string, a number no row need have. */
export function rowOf(id: string): number {
  const start = id.indexOf('_') + 1;
  let seq = 0;
  for (let i = start; i < start + SEQ_CHARS && i < id.length; i++) seq = seq * 62 + Math.max(0, ALPHABET.indexOf(id[i]!));
  return seq;
}
