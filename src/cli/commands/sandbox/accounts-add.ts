import { PROFILE_NAME, PROFILE_NAME_RULE } from '../../../config/profile.js';
import { maskSecret } from '../../../domain/secrets.js';
import { AccountCreate } from '../../../domain/test-helpers.js';
import { maybeSandbox } from '../../../config/resolve.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { defineCommand, flag, type OptionsOf } from '../../command.js';
import { checkedBody } from '../../flags.js';

const flags = {
  account: flag.string('--account <id>', 'Account id (acct_…); generated when omitted'),
  apiKeyStdin: flag.bool('--api-key-stdin', 'Read the new account\'s API key from stdin; generated when omitted'),
  name: flag.string('--name <profile>', 'Name of the profile to write (default: the account id)'),
};
export type AccountsAddOptions = OptionsOf<Record<never, never>, typeof flags>;

export const accountsAdd = defineCommand({
  name: 'add',
  description: 'Add another sandbox account and a profile for it',
  flags,
  examples: ['pay sandbox accounts add', 'printf %s "$KEY" | pay sandbox accounts add --account acct_ci_2 --api-key-stdin --name second'],
  fields: ['profile', 'account', 'api_key', 'base_url'],
  run: (options, f) => run(options, f),
});

export async function run(options: AccountsAddOptions, f: Factory): Promise<void> {
  if (options.name !== undefined && !PROFILE_NAME.test(options.name)) {
    throw new UsageError(`Invalid --name: ${PROFILE_NAME_RULE}.`);
  }
  // The key is made here, not taken from the response: a retried request's replay
  // withholds the secret it minted.
  const { newApiKey } = await import('../../../sandbox/store/accounts.js');
  const apiKey = options.apiKeyStdin ? await f.io.readKeyFromStdin('pay sandbox accounts add') : newApiKey();
  const body = checkedBody(AccountCreate, { account: options.account, api_key: apiKey }, (p) => (p === 'api_key' ? '--api-key-stdin' : `--${p}`));
  const profile = await f.profile();
  if (!maybeSandbox(profile)) throw new UsageError(`Profile '${profile.name}' (${profile.base_url}) is not a sandbox: accounts are added to the sandbox only.`);
  const profiles = await f.profiles();
  // A profile is never replaced in passing: the sandbox's own, or another account's.
  const existing = options.name === undefined ? undefined : profiles.get(options.name);
  if (existing !== undefined) {
    throw new UsageError(`Invalid --name: profile '${options.name}' exists, for account ${existing.account}; choose another name, or remove it first (pay profiles remove ${options.name} --yes).`);
  }
  const client = await f.client();
  const created = await client.call<{ id: string }>('test_helpers.accounts_create', { body });
  const name = options.name ?? created.id;
  const { keptListenIdentity } = await import('../../../webhooks/identity.js');
  const kept = await keptListenIdentity(profiles.dir, name, profiles.get(name), created.id);
  // The same sandbox, on the same database when it is started on demand. Added to a
  // sandbox this machine did not start (one PAY_BASE_URL names, as a CI job's), the profile
  // only points at it: a sandbox profile would start one of its own whenever it found
  // none recorded as running.
  const db = profile.sandbox_db === undefined ? {} : { sandbox_db: profile.sandbox_db };
  await profiles.set(name, { base_url: profile.base_url, account: created.id, api_key: apiKey, header_prefix: profile.header_prefix, sandbox: profile.sandbox, ...kept, ...db });
  const shown = { profile: name, account: created.id, api_key: maskSecret(apiKey), base_url: profile.base_url };
  if (f.io.json) return f.io.printJSON(shown);
  f.io.success(`Added account ${created.id} as profile '${name}'. Use it with: --profile ${name}`);
}
