import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ListenError, ListenerRunningError } from './errors.js';
import type { Profile } from '../config/profile.js';
import { ENVIRONMENT_PROFILE, type ResolvedProfile } from '../config/resolve.js';
import type { ProfileStore } from '../config/store.js';
import { acquireLock } from '../infra/pid-lock.js';
import { newWebhookSecret } from '../infra/webhook-signing.js';

/** Who a profile's `listen` is: its signing secret, its cursor's id at the service, its spool. */
export interface ListenIdentity {
  secret: string;
  listenerId: string;
  spoolFile: string;
}

const newListenerId = () => `lsn_${randomBytes(12).toString('hex')}`;

/** Where a profile's first listen claims its identity (claimIdentity), and a listener's spool. */
const claimFile = (dir: string, profileName: string) => join(dir, 'listen', `${encodeURIComponent(profileName)}.identity.json`);
const spoolFileOf = (dir: string, listenerId: string) => join(dir, 'listen', `${listenerId}.db`);

/**
 * The profile's listen identity, made once and kept in the profile, so the app's secret
 * never changes between runs. A profile made of environment variables has nowhere to
 * keep one: its identity derives from its API key, as stable as the key itself.
 */
export async function listenIdentity(profile: ResolvedProfile, store: ProfileStore): Promise<ListenIdentity> {
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
      // The claim has done its work once the profile keeps the identity: no second copy of the secret stays behind.
      rmSync(claimFile(store.dir, profile.name), { force: true });
    } else {
      ({ secret, listenerId } = claimIdentity(store, profile.name, { secret: saved.listen_secret ?? newWebhookSecret(), listenerId: saved.listener_id ?? newListenerId() }));
      await store.update(profile.name, (now) => ({ ...now, listen_secret: secret, listener_id: listenerId }));
    }
  }
  return { secret, listenerId, spoolFile: spoolFileOf(store.dir, listenerId) };
}

/**
 * The first identity made for a profile, whoever made it: two listens started at once on
 * a profile that never listened would each make one, and the app would be given a secret
 * the profile no longer keeps. The first to link its file wins; the other reads it.
 */
function claimIdentity(store: ProfileStore, profileName: string, candidate: { secret: string; listenerId: string }): { secret: string; listenerId: string } {
  const file = claimFile(store.dir, profileName);
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
  // Once the winner has saved it in the profile (and its claim may be gone already), the profile's is the one and the claim has done its work.
  const kept = store.get(profileName);
  if (kept?.listen_secret !== undefined && kept.listener_id !== undefined) {
    rmSync(file, { force: true });
    return { secret: kept.listen_secret, listenerId: kept.listener_id };
  }
  return JSON.parse(readFileSync(file, 'utf8')) as { secret: string; listenerId: string };
}

/**
 * The listen identity a profile saved over `saved` keeps: the same account's (a new key,
 * the sandbox on another port), so the app's signing secret stays what it was. For
 * another account, the old identity goes, with the events its spool still holds for the
 * old account (refused while a listen of it runs); the next listen makes a new one.
 */
export async function keptListenIdentity(dir: string, name: string, saved: Profile | undefined, account: string): Promise<Pick<Profile, 'listen_secret' | 'listener_id'>> {
  if (saved?.account === account) return { listen_secret: saved.listen_secret, listener_id: saved.listener_id };
  await forgetListenIdentity(dir, name, saved, 'stop it before replacing the profile.');
  return {};
}

/**
 * Removes what a profile's listen keeps on disk: its claim (a copy of the secret) and its
 * spool (events not yet forwarded, with customers' details). Refused, changing nothing,
 * while a listen of the profile runs: it holds the spool's lock.
 */
export async function forgetListenIdentity(dir: string, name: string, saved: Profile | undefined, advice = 'stop it before removing the profile.'): Promise<void> {
  const spool = saved?.listener_id === undefined ? undefined : spoolFileOf(dir, saved.listener_id);
  if (spool !== undefined && existsSync(dirname(spool))) {
    const release = await acquireLock(`${spool}.lock`, (locked) => new ListenerRunningError(locked, advice));
    try {
      for (const file of [spool, `${spool}-wal`, `${spool}-shm`]) rmSync(file, { force: true });
    } finally {
      await release();
    }
  }
  rmSync(claimFile(dir, name), { force: true });
}

/** A new listen secret for the profile; the listener keeps its cursor and spool. */
export async function rotateListenSecret(profile: ResolvedProfile, store: ProfileStore): Promise<string> {
  if (profile.name === ENVIRONMENT_PROFILE) {
    throw new ListenError('This profile comes from PAY_BASE_URL, PAY_ACCOUNT and PAY_API_KEY: its listen secret derives from the API key. Save a profile (pay profiles add) to rotate it.');
  }
  await listenIdentity(profile, store);
  const secret = newWebhookSecret();
  await store.update(profile.name, (now) => ({ ...now, listen_secret: secret }));
  return secret;
}
