import { ConfigError, CredentialsError } from './errors.js';
import { checkProfile, DEFAULT_HEADER_PREFIX, type Profile, SANDBOX_PROFILE } from './profile.js';
import type { ProfileStore } from './store.js';

/** The name of a profile made only of flags and environment variables. */
export const ENVIRONMENT_PROFILE = '(environment)';

export interface ProfileFlags {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  account?: string | undefined;
  apiKey?: string | undefined;
}

export interface ResolvedProfile extends Profile {
  /** The profile name, or `(environment)` when flags and env supplied everything. */
  name: string;
  /** The sandbox profile: start its sandbox if it is not running. */
  sandbox: boolean;
}

/**
 * Flag > env > profile, field by field. Base URL, account and key from flags or the
 * environment are a complete profile on their own (CI needs no config file). With no
 * profile anywhere, the embedded sandbox is the default.
 */
export function resolveProfile(flags: ProfileFlags, env: NodeJS.ProcessEnv, store: () => ProfileStore): ResolvedProfile {
  // An empty variable is an unset one (`PAY_API_KEY= pay …`).
  const direct = {
    base_url: flags.baseUrl ?? (env.PAY_BASE_URL || undefined),
    account: flags.account ?? (env.PAY_ACCOUNT || undefined),
    api_key: flags.apiKey ?? (env.PAY_API_KEY || undefined),
  };
  const named = flags.profile ?? (env.PAY_PROFILE || undefined);
  if (named === undefined && direct.base_url && direct.account && direct.api_key) {
    return check(ENVIRONMENT_PROFILE, { ...direct, header_prefix: env.PAY_HEADER_PREFIX || DEFAULT_HEADER_PREFIX }, false);
  }
  const profiles = store();
  const name = named ?? profiles.defaultName() ?? SANDBOX_PROFILE;
  const saved = profiles.get(name);
  if (!saved && name !== SANDBOX_PROFILE) {
    const known = profiles.names();
    throw new ConfigError(
      `No profile named '${name}'.${known.length ? ` Profiles: ${known.join(', ')}.` : ''} Add one with: pay profiles add ${name}`,
    );
  }
  const merged = {
    ...saved,
    base_url: direct.base_url ?? saved?.base_url,
    account: direct.account ?? saved?.account,
    api_key: direct.api_key ?? saved?.api_key,
    header_prefix: env.PAY_HEADER_PREFIX || (saved?.header_prefix ?? DEFAULT_HEADER_PREFIX),
  };
  // The sandbox profile before its first start has no values yet: starting it writes them.
  const isSandbox = saved === undefined || saved.sandbox === true;
  if (isSandbox && saved === undefined) return { name, sandbox: true, ...merged } as ResolvedProfile;
  return check(name, merged, isSandbox);
}

function check(name: string, fields: Record<string, unknown>, sandbox: boolean): ResolvedProfile {
  for (const field of ['base_url', 'account', 'api_key'] as const) {
    if (!fields[field]) {
      const env = `PAY_${field.toUpperCase()}`;
      throw new CredentialsError(`Profile '${name}' has no ${field}: set it with 'pay profiles add ${name}' or ${env}.`);
    }
  }
  const checked = checkProfile(fields);
  if ('problem' in checked) throw new ConfigError(`Profile '${name}': ${checked.problem.field} ${checked.problem.message}.`);
  return { ...checked.profile, name, sandbox };
}
