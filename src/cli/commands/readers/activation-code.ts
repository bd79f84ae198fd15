import type { Command } from 'commander';
import type { ActivationCode } from '../../../domain/terminal-readers.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('activation-code')
    .description('Get an activation code for a self-owned processor A developer reader (what support hands out)')
    .action(async () => run(f));
  withExamples(command, 'pay readers activation-code', 'pay readers activation-code --json | jq -r .code');
}

export async function run(f: Factory): Promise<void> {
  const client = await f.client();
  const code = await client.call<ActivationCode>('terminal_readers.activation_code');
  if (f.io.human) f.io.success(`Activation code ${code.code}, valid until ${code.expires_at}. Enter it on the reader, or: pay readers activate --activation-code ${code.code} --serial …`);
  f.io.printObject(code);
}
