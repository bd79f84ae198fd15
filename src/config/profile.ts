import { z } from 'zod';

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const SANDBOX_PROFILE = 'sandbox';
export const DEFAULT_HEADER_PREFIX = 'pay';

export const Profile = z.object({
  base_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://api.example.com' }),
  // A word, not a URL or a sentence: what goes in the account header.
  account: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/, { error: 'must be an account id: letters, digits, _ and -, e.g. acct_123' }),
  api_key: z.string().min(1, { error: 'must not be empty' }),
  header_prefix: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/, { error: 'must be lowercase letters, digits and -' })
    .default(DEFAULT_HEADER_PREFIX),
  /** Set on the profile `pay sandbox start` writes: its sandbox is started on demand. */
  sandbox: z.boolean().optional(),
  /** The stable signing secret of `pay webhooks listen` for this profile. */
  listen_secret: z.string().optional(),
  /** The id under which the service keeps this profile's listen cursor (lsn_…). */
  listener_id: z.string().optional(),
});
export type Profile = z.infer<typeof Profile>;
