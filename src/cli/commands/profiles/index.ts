import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import * as add from './add.js';
import * as list from './list.js';
import * as remove from './remove.js';
import * as show from './show.js';
import * as use from './use.js';

export function register(noun: Command, f: Factory): void {
  add.define(noun, f);
  list.define(noun, f);
  use.define(noun, f);
  show.define(noun, f);
  remove.define(noun, f);
}
