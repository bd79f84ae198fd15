import { API_KEY_CHARACTERS, API_KEY_CHARACTERS_RULE, looksLikeSecret } from '../domain/secrets.js';
import { httpUrlRule, isHttpUrlWithoutCredentials } from '../domain/urls.js';

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const PROFILE_NAME_RULE = 'a profile name is letters, digits, - and _, starting with a letter or digit';
export const SANDBOX_PROFILE = 'sandbox';
export const DEFAULT_HEADER_PREFIX = 'pay';

export interface Profile {
  base_url: string;
  account: string;
  api_key: string;
  header_prefix: string;
  /** Set on the profile `pay sandbox start` writes: its sandbox is started on demand. */
  sandbox?: boolean | undefined;
  /** The stable signing secret of `pay webhooks listen` for this profile. */
  listen_secret?: string | undefined;
  /** The id under which the service keeps this profile's listen cursor (lsn_…). */
  listener_id?: string | undefined;
  /** The database file the sandbox was last started on with --db: where a start on demand resumes it. */
  sandbox_db?: string | undefined;
}

/** What is wrong with a profile's field: `missing` when it is absent. */
export interface ProfileProblem {
  field: keyof Profile;
  message: string;
  missing?: boolean;
}

// The key goes in its own field, never where a URL is shown.
export const BASE_URL_RULE = httpUrlRule('https://api.example.com');
export const BASE_URL_VERSION_RULE = 'must not end in /v1: the paths pay sends start with it (https://api.example.com/v1 is https://api.example.com)';
const aString = (value: unknown) => (typeof value === 'string' ? undefined : 'must be a string');
const text = (rule: (value: string) => boolean, message: string) => (value: unknown) => aString(value) ?? (rule(value as string) ? undefined : message);
const baseUrlProblem = (value: unknown) =>
  aString(value) ?? (!isHttpUrlWithoutCredentials(value as string) ? BASE_URL_RULE : /\/v1\/?$/.test(new URL(value as string).pathname) ? BASE_URL_VERSION_RULE : undefined);

/**
 * The rules of a profile's fields, checked when one is added and on every use (a file
 * edited by hand, values from the environment). Plain code rather than a zod schema:
 * every command reads a profile, and zod would be most of a short command's start-up.
 */
const RULES: { [K in keyof Profile]-?: { required: boolean; check: (value: unknown) => string | undefined } } = {
  base_url: { required: true, check: baseUrlProblem },
  // A word, not a URL or a sentence: what goes in the account header.
  // Nor the key: the two swapped would send the key in the account header and show it whole in profiles list.
  account: {
    required: true,
    check: (v) =>
      text((a) => /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/.test(a), 'must be an account id: letters, digits, _ and -, e.g. acct_123')(v) ??
      (looksLikeSecret(v as string) ? 'must be an account id, e.g. acct_123, not an API key or signing secret' : undefined),
  },
  api_key: { required: true, check: text((v) => API_KEY_CHARACTERS.test(v), API_KEY_CHARACTERS_RULE) },
  header_prefix: { required: false, check: text((v) => /^[a-z][a-z0-9-]*$/.test(v), 'must be lowercase letters, digits and -') },
  sandbox: { required: false, check: (v) => (typeof v === 'boolean' ? undefined : 'must be true or false') },
  listen_secret: { required: false, check: aString },
  listener_id: { required: false, check: aString },
  sandbox_db: { required: false, check: aString },
};

/** What is wrong with one field's given value, in words (`must be …`), or undefined. */
export const profileFieldProblem = (field: keyof Profile, value: unknown): string | undefined => RULES[field].check(value);

/** The profile the fields make (header_prefix defaulted, nothing else kept), or its first problem. */
export function checkProfile(fields: Record<string, unknown>): { profile: Profile } | { problem: ProfileProblem } {
  const profile: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(RULES) as Array<[keyof Profile, (typeof RULES)[keyof Profile]]>) {
    const value = fields[field];
    if (value === undefined) {
      if (rule.required) return { problem: { field, message: 'is required', missing: true } };
      continue;
    }
    const message = profileFieldProblem(field, value);
    if (message !== undefined) return { problem: { field, message } };
    profile[field] = value;
  }
  return { profile: { header_prefix: DEFAULT_HEADER_PREFIX, ...profile } as Profile };
}
