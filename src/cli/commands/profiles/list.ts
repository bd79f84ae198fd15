import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';
import { shownProfile } from './view.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('list')
    .description('List profiles (keys masked)')
    .action(async () => run(f));
  withExamples(command, 'pay profiles list', 'pay profiles list --json');
}

export async function run(f: Factory): Promise<void> {
  const store = await f.profiles();
  const rows = store.names().map((name) => shownProfile(name, store.get(name)!, store.defaultName() === name));
  f.io.printList(rows, [
    { header: '', value: (p) => (p.default ? '*' : '') },
    { header: 'NAME', value: (p) => p.name },
    { header: 'BASE URL', value: (p) => p.base_url },
    { header: 'ACCOUNT', value: (p) => p.account },
    { header: 'API KEY', value: (p) => p.api_key },
  ]);
}
