import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import * as get from './get.js';
import * as list from './list.js';
import * as resend from './resend.js';
import * as tail from './tail.js';

export function register(noun: Command, f: Factory): void {
  list.define(noun, f);
  get.define(noun, f);
  resend.define(noun, f);
  tail.define(noun, f);
}
