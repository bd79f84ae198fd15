import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import * as cancel from './cancel.js';
import * as create from './create.js';
import * as get from './get.js';
import * as list from './list.js';
import * as pastDue from './past-due.js';
import * as pause from './pause.js';
import * as resume from './resume.js';
import * as retry from './retry.js';
import * as retryPastDue from './retry-past-due.js';
import * as schedule from './schedule.js';
import * as update from './update.js';

export function register(noun: Command, f: Factory): void {
  create.define(noun, f);
  get.define(noun, f);
  list.define(noun, f);
  update.define(noun, f);
  pause.define(noun, f);
  resume.define(noun, f);
  cancel.define(noun, f);
  retry.define(noun, f);
  schedule.define(noun, f);
  pastDue.define(noun, f);
  retryPastDue.define(noun, f);
}
