import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import * as attach from './attach.js';
import * as create from './create.js';
import * as get from './get.js';
import * as list from './list.js';

export function register(noun: Command, f: Factory): void {
  create.define(noun, f);
  attach.define(noun, f);
  get.define(noun, f);
  list.define(noun, f);
}
