import { maskSecret } from '../../../config/mask.js';
import type { Profile } from '../../../config/profile.js';
import { fieldsOf } from '../../command.js';

/** A profile as it may be shown: the key masked, the listen secret left out. */
export function shownProfile(name: string, profile: Profile, isDefault: boolean) {
  return {
    name,
    default: isDefault,
    base_url: profile.base_url,
    account: profile.account,
    api_key: maskSecret(profile.api_key),
    header_prefix: profile.header_prefix,
    sandbox: profile.sandbox === true,
  };
}

export const profileFields = fieldsOf<ReturnType<typeof shownProfile>>()('name', 'default', 'base_url', 'account', 'api_key', 'header_prefix', 'sandbox');
