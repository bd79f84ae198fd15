import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import * as activate from './activate.js';
import * as activationCode from './activation-code.js';
import * as get from './get.js';
import * as list from './list.js';
import * as present from './present.js';

export function register(noun: Command, f: Factory): void {
  list.define(noun, f);
  get.define(noun, f);
  activationCode.define(noun, f);
  activate.define(noun, f);
  present.define(noun, f);
}
