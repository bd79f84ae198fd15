import type { Command } from 'commander';
import { ClockAdvance, type TestClockObject } from '../../../domain/test-helpers.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { checkedBody, intArg, withExamples } from '../../flags.js';

/** No `advance`: show the clock. */
export interface ClockOptions {
  advance?: ClockAdvance;
}

export function define(noun: Command, f: Factory): void {
  const clock = noun.command('clock').description('Show or advance the test clock of the profile\'s sandbox account');
  withExamples(clock, 'pay sandbox clock', 'pay sandbox clock advance --to 2030-02-01', 'pay sandbox clock advance --days 30 --json');
  clock
    .command('show', { isDefault: true })
    .description('Show the clock\'s current instant')
    .action(async () => {
      await run({}, f);
    });
  const advance = clock
    .command('advance')
    .description('Move the clock forward, running every payment and cancellation due on the way, in date order')
    .option('--to <date>', 'Target date (YYYY-MM-DD, meaning 00:00:00Z) or ISO 8601 date-time')
    .option('--days <n>', 'Number of days to move forward', intArg)
    .action(async (flags: { to?: string; days?: number }) => {
      await run({ advance: checkedBody(ClockAdvance, { to: flags.to, days: flags.days }) }, f);
    });
  withExamples(advance, 'pay sandbox clock advance --to 2030-02-01', 'pay sandbox clock advance --days 7');
}

export async function run(options: ClockOptions, f: Factory): Promise<TestClockObject> {
  const profile = await f.profile();
  if (!profile.sandbox) throw new UsageError(`Profile '${profile.name}' is not a sandbox: only the sandbox has a test clock.`);
  const client = await f.client();
  if (!options.advance) {
    const clock = await client.call<TestClockObject>('test_helpers.clock');
    f.io.printObject(clock);
    return clock;
  }
  const body = options.advance;
  // The sandbox answers once all the work due on the way is done: years of billing can take a while.
  const clock = await f.io.spin('Advancing the test clock…', () => client.call<TestClockObject>('test_helpers.clock_advance', { body, timeoutMs: 0 }));
  if (f.io.human) f.io.success(`Clock advanced to ${clock.now}`);
  f.io.printObject(clock);
  return clock;
}
