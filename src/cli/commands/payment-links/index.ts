import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import * as create from './create.js';

export function register(noun: Command, f: Factory): void {
  create.define(noun, f);
}
