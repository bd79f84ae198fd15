import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import * as simulate from './simulate.js';

export function register(noun: Command, f: Factory): void {
  simulate.define(noun, f);
}
