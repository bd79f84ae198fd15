import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
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
    secret = saved.listen_secret ?? newWebhookSecret();
    listenerId = saved.listener_id ?? newListenerId();
    if (saved.listen_secret !== secret || saved.listener_id !== listenerId) {
      store.set(profile.name, { ...saved, listen_secret: secret, listener_id: listenerId });
    }
  }
  return { secret, listenerId, spoolFile: join(store.dir, 'listen', `${listenerId}.db`) };
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
