import { maskSecret } from '../../../domain/secrets.js';
import type { Profile } from '../../../config/profile.js';
import { fieldsOf } from '../../command.js';

/**
 * A profile as it may be shown: the key masked, the listen secret left out. A value the
 * file lacks (edited by hand) is null, as profiles show has it; using the profile says so.
 */
export function shownProfile(name: string, profile: Partial<Profile>, isDefault: boolean) {
  return {
    name,
    default: isDefault,
    base_url: profile.base_url ?? null,
    account: profile.account ?? null,
    api_key: profile.api_key ? maskSecret(profile.api_key) : null,
    header_prefix: profile.header_prefix ?? null,
    sandbox: profile.sandbox === true,
  };
}

export const profileFields = fieldsOf<ReturnType<typeof shownProfile>>()('name', 'default', 'base_url', 'account', 'api_key', 'header_prefix', 'sandbox');
