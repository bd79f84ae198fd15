import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import * as cancel from './cancel.js';
import * as capture from './capture.js';
import * as confirm from './confirm.js';
import * as create from './create.js';
import * as get from './get.js';
import * as list from './list.js';
import * as update from './update.js';

export function register(noun: Command, f: Factory): void {
  create.define(noun, f);
  confirm.define(noun, f);
  get.define(noun, f);
  list.define(noun, f);
  update.define(noun, f);
  capture.define(noun, f);
  cancel.define(noun, f);
}
