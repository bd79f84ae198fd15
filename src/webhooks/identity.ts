import { createHmac, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ListenError } from './errors.js';
import { ENVIRONMENT_PROFILE, type ResolvedProfile } from '../config/resolve.js';
import type { ProfileStore } from '../config/store.js';
import { newWebhookSecret } from '../infra/webhook-signing.js';

/** Who a profile's `listen` is: its signing secret, its cursor's id at the service, its spool. */
export interface ListenIdentity {
  secret: string;
  listenerId: string;
  spoolFile: string;
}

const newListenerId = () => `lsn_${randomBytes(12).toString('hex')}`;

/**
 * The profile's listen identity, made once and kept in the profile, so the app's secret
 * never changes between runs. A profile made of environment variables has nowhere to
 * keep one: its identity derives from its API key, as stable as the key itself.
 */
export function listenIdentity(profile: ResolvedProfile, store: ProfileStore): ListenIdentity {
  let secret: string;
  let listenerId: string;
  if (profile.name === ENVIRONMENT_PROFILE) {
    const derive = (purpose: string) => createHmac('sha256', profile.api_key).update(`pay listen ${purpose} ${profile.account}`).digest();
    secret = `whsec_${derive('secret').subarray(0, 24).toString('base64')}`;
    listenerId = `lsn_${derive('listener').subarray(0, 12).toString('hex')}`;
  } else {
    const saved = store.get(profile.name);
    if (!saved) throw new ListenError(`Profile '${profile.name}' is not saved: add it with pay profiles add ${profile.name}.`);
    if (saved.listen_secret !== undefined && saved.listener_id !== undefined) {
      secret = saved.listen_secret;
      listenerId = saved.listener_id;
    } else {
      ({ secret, listenerId } = claimIdentity(store.dir, profile.name, { secret: saved.listen_secret ?? newWebhookSecret(), listenerId: saved.listener_id ?? newListenerId() }));
      store.set(profile.name, { ...saved, listen_secret: secret, listener_id: listenerId });
    }
  }
  return { secret, listenerId, spoolFile: join(store.dir, 'listen', `${listenerId}.db`) };
}

/**
 * The first identity made for a profile, whoever made it: two listens started at once on
 * a profile that never listened would each make one, and the app would be given a secret
 * the profile no longer keeps. The first to link its file wins; the other reads it.
 */
function claimIdentity(dir: string, profileName: string, candidate: { secret: string; listenerId: string }): { secret: string; listenerId: string } {
  const file = join(dir, 'listen', `${encodeURIComponent(profileName)}.identity.json`);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const staged = `${file}.${process.pid}`;
  // Written whole before it appears under its name (a hard link, as the pid lock's).
  writeFileSync(staged, JSON.stringify(candidate), { mode: 0o600 });
  try {
    linkSync(staged, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(staged);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as { secret: string; listenerId: string };
}

/** A new listen secret for the profile; the listener keeps its cursor and spool. */
export function rotateListenSecret(profile: ResolvedProfile, store: ProfileStore): string {
  if (profile.name === ENVIRONMENT_PROFILE) {
    throw new ListenError('This profile comes from PAY_BASE_URL, PAY_ACCOUNT and PAY_API_KEY: its listen secret derives from the API key. Save a profile (pay profiles add) to rotate it.');
  }
  listenIdentity(profile, store);
  const saved = store.get(profile.name)!;
  const secret = newWebhookSecret();
  store.set(profile.name, { ...saved, listen_secret: secret });
  return secret;
}
