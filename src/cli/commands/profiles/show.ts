import { maskSecret } from '../../../domain/secrets.js';
import { defineCommand } from '../../command.js';

export const show = defineCommand({
  name: 'show',
  description: 'Show the profile in force (flag > env > config), key masked',
  examples: ['pay profiles show', 'pay profiles show --profile staging --json', 'PAY_BASE_URL=http://127.0.0.1:12111 pay profiles show   # what the environment overrides'],
  fields: ['name', 'base_url', 'account', 'api_key', 'header_prefix', 'sandbox', 'config_file'],
  async run(_, f) {
    const { resolveProfile } = await import('../../../config/resolve.js');
    const store = await f.profiles();
    // Resolved without starting the sandbox: show says what would be used.
    const profile = resolveProfile({ profile: f.flags.profile }, f.env, () => store);
    f.io.printObject({
      name: profile.name,
      base_url: profile.base_url ?? null,
      account: profile.account ?? null,
      api_key: profile.api_key ? maskSecret(profile.api_key) : null,
      header_prefix: profile.header_prefix,
      sandbox: profile.sandbox,
      config_file: store.path,
    });
  },
});
