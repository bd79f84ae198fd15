import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import * as get from './get.js';
import * as list from './list.js';

export function register(noun: Command, f: Factory): void {
  get.define(noun, f);
  list.define(noun, f);
}
