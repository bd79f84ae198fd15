import { ConfigError, CredentialsError } from './errors.js';
import { checkProfile, DEFAULT_HEADER_PREFIX, type Profile, PROFILE_NAME, PROFILE_NAME_RULE, SANDBOX_PROFILE } from './profile.js';
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
  // Where a field's value came from when not from the profile: a bad one is named by it.
  const origin = (field: string): string | undefined => {
    if (field === 'header_prefix') return env.PAY_HEADER_PREFIX ? 'PAY_HEADER_PREFIX' : undefined;
    if (!(field in FLAG_OF)) return undefined;
    if (flags[FLAG_OF[field as Field]] !== undefined) return `--${field.replace('_', '-')}`;
    return direct[field as Field] !== undefined ? `PAY_${field.toUpperCase()}` : undefined;
  };
  const environmentOnly = () => check(ENVIRONMENT_PROFILE, { ...direct, header_prefix: env.PAY_HEADER_PREFIX || DEFAULT_HEADER_PREFIX }, false, origin);
  if (named === undefined && direct.base_url && direct.account && direct.api_key) return environmentOnly();
  const profiles = store();
  const name = named ?? profiles.defaultName() ?? SANDBOX_PROFILE;
  const saved = profiles.get(name);
  // The sandbox's account and key are this machine's sandbox's: a service elsewhere that the
  // environment names gets only what the environment gives it (its key is asked for).
  if (saved?.sandbox === true && direct.base_url !== undefined && !onThisMachine(direct.base_url)) return environmentOnly();
  if (!saved && name !== SANDBOX_PROFILE) {
    const known = profiles.names();
    const list = known.length ? ` Profiles: ${known.join(', ')}.` : '';
    // A name no profile can have cannot be added either: say the rule, not how to add it.
    if (!PROFILE_NAME.test(name)) throw new ConfigError(`Invalid ${flags.profile !== undefined ? '--profile' : 'PAY_PROFILE'} '${name}': ${PROFILE_NAME_RULE}.${list}`);
    throw new ConfigError(`No profile named '${name}'.${list} Add one with: pay profiles add ${name}`);
  }
  const merged = {
    ...saved,
    base_url: direct.base_url ?? saved?.base_url,
    account: direct.account ?? saved?.account,
    api_key: direct.api_key ?? saved?.api_key,
    header_prefix: env.PAY_HEADER_PREFIX || (saved?.header_prefix ?? DEFAULT_HEADER_PREFIX),
  };
  // A base URL given for the sandbox profile names where its sandbox runs: on this machine
  // (before its first start, where to start it) or it is another service, whose key
  // comes with it and for which no sandbox is started.
  const elsewhere = direct.base_url !== undefined && (saved ? direct.base_url !== saved.base_url : !onThisMachine(direct.base_url));
  const isSandbox = (saved === undefined || saved.sandbox === true) && !elsewhere;
  // The sandbox profile before its first start has no values yet: starting it writes them.
  if (isSandbox && saved === undefined) return { name, sandbox: true, ...merged } as ResolvedProfile;
  return check(saved === undefined ? ENVIRONMENT_PROFILE : name, merged, isSandbox, origin);
}

const FLAG_OF = { base_url: 'baseUrl', account: 'account', api_key: 'apiKey' } as const;
type Field = keyof typeof FLAG_OF;

/**
 * Where test helpers (the clock, reset, accounts) may go: the sandbox profile, or a
 * service on this machine, as the sandbox a CI job started and named by PAY_BASE_URL.
 * Never a service elsewhere.
 */
export const maybeSandbox = (profile: ResolvedProfile) => profile.sandbox || onThisMachine(profile.base_url);

/** A plain-HTTP loopback URL: where a sandbox on this machine can listen. */
function onThisMachine(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url);
    return protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
  } catch {
    return false;
  }
}

/** `origin(field)`: the flag or variable a field's value came from, when not from the profile. */
function check(name: string, fields: Record<string, unknown>, sandbox: boolean, origin: (field: string) => string | undefined): ResolvedProfile {
  for (const field of ['base_url', 'account', 'api_key'] as const) {
    if (!fields[field]) {
      const env = `PAY_${field.toUpperCase()}`;
      throw new CredentialsError(
        name === ENVIRONMENT_PROFILE
          ? `No ${field}: set ${env} too (PAY_BASE_URL, PAY_ACCOUNT and PAY_API_KEY together are a profile), or use a saved profile (pay profiles add).`
          : `Profile '${name}' has no ${field}: set it with 'pay profiles add ${name}' or ${env}.`,
      );
    }
  }
  const checked = checkProfile(fields);
  if ('problem' in checked) {
    const { field, message } = checked.problem;
    const given = origin(field);
    throw new ConfigError(given ? `${given} ${message}.` : `Profile '${name}': ${field} ${message}.`);
  }
  return { ...checked.profile, name, sandbox };
}
