import { defineCommand } from '../../command.js';
import type { Factory } from '../../factory.js';

export const rotateSecret = defineCommand({
  name: 'rotate-secret',
  description: 'Replace the profile\'s listen signing secret (listen keeps it otherwise, run after run)',
  examples: ['pay webhooks rotate-secret', 'echo "WEBHOOK_SECRET=$(pay webhooks rotate-secret)" >> .env'],
  fields: ['profile', 'listen_secret'],
  run: (_, f) => run(f),
});

export async function run(f: Factory): Promise<string> {
  const { resolveProfile } = await import('../../../config/resolve.js');
  const { rotateListenSecret } = await import('../../../webhooks/identity.js');
  const store = await f.profiles();
  // No request is made: the secret lives in the profile alone.
  const profile = resolveProfile({ profile: f.flags.profile }, f.env, () => store);
  const secret = await rotateListenSecret(profile, store);
  if (f.io.json) f.io.printJSON({ profile: profile.name, listen_secret: secret });
  else {
    f.io.success(`New listen signing secret for profile '${profile.name}'. Restart a running pay webhooks listen to use it.`);
    f.io.out(secret);
  }
  return secret;
}
