import { chmodSync, readFileSync } from 'node:fs';
import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';
import { writeFileAtomic } from '../../infra/atomic-write.js';

const KEY_BYTES = 32;
const SEALED = 'sealed.v1.';

/** The key file of a database file: beside it, never inside it. */
export const keyFileOf = (dbFile: string) => `${dbFile}.key`;

/**
 * The sandbox's own secret, kept outside the database file (a 0600 file beside it; a
 * random key in this process for `:memory:`), so that nothing in the database can be
 * searched cheaply for a card number or CVC, nor reveal a webhook secret, without it.
 * Every use derives its own subkey.
 */
export class SandboxKeys {
  private readonly fingerprintKeys = new Map<string, Buffer>();
  /** A KeyObject: createHmac would otherwise convert a Buffer key on every request. */
  private readonly bodyKey: KeyObject;
  private readonly sealKey: Buffer;

  private constructor(private readonly master: Buffer) {
    this.bodyKey = createSecretKey(this.derive('idempotency-body'));
    this.sealKey = this.derive('seal');
  }

  /**
   * The key of a database file, made on first use. `created` tells the store that
   * whatever was keyed before (with a lost file) can no longer be checked.
   */
  static open(dbFile: string): { keys: SandboxKeys; created: boolean } {
    if (dbFile === ':memory:') return { keys: new SandboxKeys(randomBytes(KEY_BYTES)), created: true };
    const file = keyFileOf(dbFile);
    const kept = readKeyFile(file);
    if (kept) return { keys: new SandboxKeys(kept), created: false };
    const key = randomBytes(KEY_BYTES);
    // Whole or not at all (one sandbox a database file makes it: the file's claim): a start killed while writing leaves no key file.
    writeFileAtomic(file, `${key.toString('hex')}\n`);
    return { keys: new SandboxKeys(key), created: true };
  }

  private derive(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.master, Buffer.alloc(0), purpose, KEY_BYTES));
  }

  /** The key of an account's card fingerprints: a card is never linkable across accounts. */
  fingerprintKey(account: string): Buffer {
    let key = this.fingerprintKeys.get(account);
    if (!key) {
      key = this.derive(`card-fingerprint:${account}`);
      this.fingerprintKeys.set(account, key);
    }
    return key;
  }

  /**
   * A keyed MAC of a request body, for idempotency checks: a body's card fields cannot be
   * guessed from it. Of the body as JSON with every object's keys sorted: the same body
   * however a client orders its fields (or spaces them).
   */
  bodyMac(body: unknown): string {
    return createHmac('sha256', this.bodyKey).update(JSON.stringify(body ?? null, sortedKeys)).digest('hex');
  }

  /** Encrypts a secret the sandbox must keep (a webhook signing secret), AES-256-GCM. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${SEALED}${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64')}`;
  }

  unseal(sealed: string): string {
    if (!sealed.startsWith(SEALED)) throw new Error('not a sealed value');
    const raw = Buffer.from(sealed.slice(SEALED.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  static isSealed(value: string): boolean {
    return value.startsWith(SEALED);
  }
}

/**
 * The key kept in `file`, made only its owner's to read; none when there is no file, or an
 * empty one (a start of an earlier version killed between creating it and writing it:
 * nothing was keyed with it).
 */
function readKeyFile(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  chmodSync(file, 0o600);
  if (text === '') return undefined;
  if (!/^[0-9a-f]{64}$/.test(text.trim())) throw new Error(`${file} is not a sandbox key file (64 hex digits); move it away to start with a new key.`);
  return Buffer.from(text.trim(), 'hex');
}

/** A JSON.stringify replacer writing each object with its keys in order. */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, (value as Record<string, unknown>)[key]]));
}
