import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, cliSandbox, runCli } from '../../../../test/support/cli.js';
import { BUILT_IN_FLOWS, parseFlow } from './index.js';

const FLOWS_DIR = new URL('../../../../flows/', import.meta.url);

describe('the built-in flows', () => {
  it('are the flow files of flows/, one per name, each valid and named after its file', async () => {
    expect(readdirSync(FLOWS_DIR).sort()).toEqual(BUILT_IN_FLOWS.map((name) => `${name}.json`).sort());
    for (const name of BUILT_IN_FLOWS) {
      const flow = await parseFlow(readFileSync(new URL(`${name}.json`, FLOWS_DIR), 'utf8'), `${name}.json`);
      expect(flow.name).toBe(name);
      expect(flow.events?.length).toBeGreaterThan(0);
    }
  });
});

describe('pay trigger', () => {
  const sb = cliSandbox({ clock: '2030-01-15T00:00:00Z' });

  it('names the events the run caused, in log order, not the ones its flow file names', async () => {
    const ran = await sb.json(['trigger', 'payment_intent.succeeded']);
    expect(ran.events).toEqual(['payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded']);
    // A card that declines: the subscription's first payment fails, and the run says so.
    const declined = await sb.pay(['trigger', 'subscription.active', '--override', 'payment_method.card.number=4000000000000002', '--json', 'created,events']);
    expect(declined.code).toBe(0);
    const out = JSON.parse(declined.stdout);
    expect(out.events).toEqual(['customer.created', 'payment_method.attached', 'subscription.created', 'payment_intent.created', 'payment_intent.payment_failed', 'charge.failed', 'subscription.updated']);
    expect((await sb.http('GET', `/v1/subscriptions/${out.created.subscription}`)).body.status).toBe('past_due');
    expect(declined.stderr).toContain('subscription.active caused payment_intent.payment_failed, charge.failed, not payment_intent.succeeded, charge.succeeded as the flow names');
  });
});

describe('test helpers go to the sandbox only, as the clock and reset do', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pay-trigger-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // A deployment elsewhere (.invalid never resolves: a request would exit 7, not 2).
  const env = cliEnv(dir, { PAY_BASE_URL: 'https://pay.invalid', PAY_ACCOUNT: 'acct_prod', PAY_API_KEY: 'sk_live_elsewhere_0123456789' });

  it('a flow that advances the test clock is refused before its first request, which would make real objects', async () => {
    expect(await runCli(['trigger', 'subscription.active'], { env })).toEqual({
      code: 2,
      stdout: '',
      stderr: "✗ Profile '(environment)' (https://pay.invalid) is not a sandbox: flow subscription.active advances the test clock, which only the sandbox has.",
    });
  });

  it('pay readers present is refused before any request', async () => {
    expect(await runCli(['readers', 'present', 'tmr_1'], { env })).toEqual({
      code: 2,
      stdout: '',
      stderr: "✗ Profile '(environment)' (https://pay.invalid) is not a sandbox: presenting a card on a reader is for the sandbox's readers only.",
    });
  });
});

describe('pay trigger --list and --show take nothing they would ignore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pay-trigger-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = cliEnv(dir);

  it('--show with --override is refused: the file printed would not have the change asked for', async () => {
    expect(await runCli(['trigger', '--show', 'payment_intent.succeeded', '--override', 'amount=5000'], { env })).toEqual({
      code: 2,
      stdout: '',
      stderr: '✗ --show and --override cannot be used together: --show prints the built-in flow as it is; change the copy, or run it with --override.',
    });
  });

  it('--list with a flow, --file, --show or --override is refused, not run as a bare --list', async () => {
    for (const extra of [['payment_intent.succeeded'], ['--file', 'flow.json'], ['--show'], ['--override', 'amount=5000']]) {
      const result = await runCli(['trigger', '--list', ...extra], { env });
      expect(result, extra.join(' ')).toEqual({
        code: 2,
        stdout: '',
        stderr: '✗ --list lists the built-in flows: it takes no <flow>, --file, --show or --override.',
      });
    }
  });
});

describe('pay trigger --file that cannot be read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pay-trigger-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = cliEnv(dir);

  it('says why in words, not as an errno code', async () => {
    expect(await runCli(['trigger', '--file', join(dir, 'missing.json')], { env })).toEqual({
      code: 2,
      stdout: '',
      stderr: `✗ Cannot read --file ${join(dir, 'missing.json')}: no such file.`,
    });
    expect(await runCli(['trigger', '--file', dir], { env })).toEqual({
      code: 2,
      stdout: '',
      stderr: `✗ Cannot read --file ${dir}: it is a directory; name a flow file.`,
    });
  });
});
