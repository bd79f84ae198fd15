import { ClockAdvance, type TestClockObject } from '../../../domain/test-helpers.js';
import { maybeSandbox } from '../../../config/resolve.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { bodyFrom, defineCommand, fieldsOf, flag, group } from '../../command.js';

/** No `advance`: show the clock. */
export interface ClockOptions {
  advance?: ClockAdvance;
}

const clockFields = fieldsOf<TestClockObject>()('object', 'now');
const advanceFlags = {
  to: flag.string('--to <date>', 'Target date (YYYY-MM-DD, meaning 00:00:00Z) or date-time with Z or an offset', { field: 'to' }),
  days: flag.int('--days <n>', 'Number of days to move forward', { field: 'days' }),
};

/** `pay sandbox clock [show]` and `pay sandbox clock advance`. */
export const clock = group(
  'clock',
  'Show or advance the test clock of the profile\'s sandbox account',
  [
    defineCommand({
      name: 'show',
      isDefault: true,
      description: 'Show the clock\'s current instant',
      examples: ['pay sandbox clock show', 'pay sandbox clock show --json'],
      fields: clockFields,
      run: (_, f) => run({}, f),
    }),
    defineCommand({
      name: 'advance',
      description: 'Move the clock forward, running every payment and cancellation due on the way, in date order',
      flags: advanceFlags,
      examples: ['pay sandbox clock advance --to 2030-02-01', 'pay sandbox clock advance --days 7'],
      fields: clockFields,
      run: (options, f) => run({ advance: bodyFrom(ClockAdvance, advanceFlags, options) }, f),
    }),
  ],
  ['pay sandbox clock', 'pay sandbox clock advance --to 2030-02-01', 'pay sandbox clock advance --days 30 --json'],
);

export async function run(options: ClockOptions, f: Factory): Promise<TestClockObject> {
  const profile = await f.profile();
  if (!maybeSandbox(profile)) throw new UsageError(`Profile '${profile.name}' (${profile.base_url}) is not a sandbox: only the sandbox has a test clock.`);
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
