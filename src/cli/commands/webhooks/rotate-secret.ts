import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('rotate-secret')
    .description('Replace the profile\'s listen signing secret (listen keeps it otherwise, run after run)')
    .action(async () => {
      await run(f);
    });
  withExamples(command, 'pay webhooks rotate-secret', 'echo "WEBHOOK_SECRET=$(pay webhooks rotate-secret)" >> .env');
}

export async function run(f: Factory): Promise<string> {
  const { resolveProfile } = await import('../../../config/resolve.js');
  const { rotateListenSecret } = await import('../../../webhooks/identity.js');
  const store = await f.profiles();
  // No request is made: the secret lives in the profile alone.
  const profile = resolveProfile({ profile: f.flags.profile }, f.env, () => store);
  const secret = rotateListenSecret(profile, store);
  if (f.io.json) f.io.printJSON({ profile: profile.name, listen_secret: secret });
  else {
    f.io.success(`New listen signing secret for profile '${profile.name}'. Restart a running pay webhooks listen to use it.`);
    f.io.out(secret);
  }
  return secret;
}
