import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import * as create from './create.js';
import * as get from './get.js';

export function register(noun: Command, f: Factory): void {
  create.define(noun, f);
  get.define(noun, f);
}
