import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import * as accountsAdd from './accounts-add.js';
import * as cards from './cards.js';
import * as clock from './clock.js';
import * as reset from './reset.js';
import * as start from './start.js';
import * as status from './status.js';
import * as stop from './stop.js';

export function register(noun: Command, f: Factory): void {
  start.define(noun, f);
  stop.define(noun, f);
  status.define(noun, f);
  reset.define(noun, f);
  cards.define(noun, f);
  clock.define(noun, f);
  const accounts = noun.command('accounts').description('Accounts of the sandbox');
  accountsAdd.define(accounts, f);
}
