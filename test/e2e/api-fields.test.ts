import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from './harness.js';

let sb: SandboxHandle;
const dir = mkdtempSync(join(tmpdir(), 'pay-api-fields-'));
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const NUMBER = '5555555555554444';
const CVC = '654';

/** The trace lines (`> …` and `< …`) of a --verbose run. */
const traceOf = (stderr: string) => stderr.split('\n').filter((line) => /^[<>!] /.test(line));

/** Neither the number nor the CVC, as a JSON string or a JSON number, nor in a query. */
function expectNoCardData(text: string): void {
  expect(text).not.toContain(NUMBER);
  for (const form of [`"cvc":${CVC}`, `"cvc":"${CVC}"`, `cvc=${CVC}`]) expect(text).not.toContain(form);
}

describe('pay api -f/-F (DESIGN section 8, as gh api)', () => {
  it('-f strings and -F typed values create a card; the --verbose trace holds neither number nor CVC', async () => {
    const result = await sb.pay(['api', 'POST', '/v1/payment-methods', '-f', 'type=card', '-f', `card.number=${NUMBER}`, '-F', 'card.exp_month=12', '-F', 'card.exp_year=2034', '-f', `card.cvc=${CVC}`, '--verbose']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ object: 'payment_method', type: 'card', card: { brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2034 } });
    const trace = traceOf(result.stderr);
    expect(trace.join('\n')).toContain('"card":{"number":"…4444","exp_month":12,"exp_year":2034,"cvc":"…"}');
    expectNoCardData(result.stderr);
    expectNoCardData(result.stdout);
  });

  it('a number and a CVC sent as JSON numbers (-F) are masked by their names all the same', async () => {
    const result = await sb.pay(['api', 'POST', '/v1/payment-methods', '-f', 'type=card', '-F', `card.number=${NUMBER}`, '-F', 'card.exp_month=12', '-F', 'card.exp_year=2034', '-F', `card.cvc=${CVC}`, '--verbose']);
    // The service wants strings: 400 naming the field, and the trace still shows nothing of the card.
    expect(result.exitCode).toBe(1);
    expect(traceOf(result.stderr).join('\n')).toContain('"number":"…4444"');
    expectNoCardData(result.stderr);
    expectNoCardData(result.stdout);
  });

  it('query parameters are masked by name too', async () => {
    const result = await sb.pay(['api', 'GET', '/v1/customers', '-f', `card.number=${NUMBER}`, '-F', `cvc=${CVC}`, '-f', `api_key=${sb.apiKey}`, '--verbose']);
    const request = traceOf(result.stderr).find((line) => line.startsWith('> GET'))!;
    expect(request).toContain('card.number=…4444');
    expect(request).toContain('cvc=…');
    expectNoCardData(result.stderr);
    expect(result.stderr).not.toContain(sb.apiKey);
  });

  it('GET sends the fields as the query, names as written', async () => {
    for (const email of ['q1@example.com', 'q2@example.com']) await sb.pay(['api', 'POST', '/v1/customers', '-f', `email=${email}`]);
    const listed = await sb.pay(['api', 'GET', '/v1/customers', '-F', 'limit=1', '-f', 'email=q1@example.com', '--verbose']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stderr).toContain('/v1/customers?limit=1&email=q1%40example.com');
    expect(JSON.parse(listed.stdout).data.map((c: { email: string }) => c.email)).toEqual(['q1@example.com']);
  });

  it('-f keeps digits and true a string; -F types them; dotted keys nest and key[]=v appends in the order given', async () => {
    const strings = await sb.pay(['api', 'POST', '/v1/customers', '-f', 'phone=4155550100', '-f', 'metadata.vip=true', '-f', 'metadata.n=12']);
    expect(strings.exitCode, strings.stderr).toBe(0);
    expect(JSON.parse(strings.stdout)).toMatchObject({ phone: '4155550100', metadata: { vip: 'true', n: '12' } });
    const typed = await sb.pay(['api', 'POST', '/v1/payment-intents', '-F', 'amount=1099', '-f', 'currency=usd', '-f', 'payment_method_types[]=card', '-F', 'confirm=false', '--verbose']);
    expect(typed.exitCode, typed.stderr).toBe(0);
    expect(typed.stderr).toContain('{"amount":1099,"currency":"usd","payment_method_types":["card"],"confirm":false}');
    const webhook = await sb.pay(['api', 'POST', '/v1/webhook-endpoints', '-f', 'url=https://example.com/hook', '-f', 'enabled_events[]=charge.succeeded', '-F', 'enabled_events[]=payment_intent.created', '--json']);
    expect(webhook.exitCode, webhook.stderr).toBe(0);
    expect(JSON.parse(webhook.stdout).enabled_events).toEqual(['charge.succeeded', 'payment_intent.created']);
  });

  it('-F key=@file sends the file\'s contents, -F key=@- reads stdin', async () => {
    const file = join(dir, 'email.txt');
    writeFileSync(file, 'from-file@example.com');
    const fromFile = await sb.pay(['api', 'POST', '/v1/customers', '-F', `email=@${file}`]);
    expect(fromFile.exitCode, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout).email).toBe('from-file@example.com');
    const fromStdin = await sb.pay(['api', 'POST', '/v1/customers', '-F', 'email=@-', '-f', 'first_name=@literal'], { input: 'from-stdin@example.com' });
    expect(fromStdin.exitCode, fromStdin.stderr).toBe(0);
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ email: 'from-stdin@example.com', first_name: '@literal' });
  });

  it('usage errors (exit 2), before any request: no -d any more, a missing file, a number too long, -F with --data-json, GET with --data-json', async () => {
    const cases: Array<[string[], string]> = [
      [['api', 'POST', '/v1/customers', '-d', 'email=a@example.com'], "Unknown option '-d'"],
      [['api', 'POST', '/v1/customers', '-F', `email=@${join(dir, 'missing.txt')}`], 'cannot read'],
      [['api', 'POST', '/v1/customers', '-F', 'phone=41555501001234567890'], 'send it as a string with -f'],
      [['api', 'POST', '/v1/customers', '-f', 'email'], "Invalid -f 'email': expected key=value"],
      [['api', 'POST', '/v1/customers', '-f', 'email=a@example.com', '--data-json', '{}'], 'not both'],
      [['api', 'GET', '/v1/customers', '--data-json', '{"limit":1}'], 'a GET sends no body'],
      [['api', 'POST', '/v1/customers', '-F', 'email=@-', '-F', 'first_name=@-'], 'stdin can be read only once'],
    ];
    for (const [args, message] of cases) {
      const result = await sb.pay([...args, '--verbose']);
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(message);
      expect(traceOf(result.stderr)).toEqual([]);
    }
  });
});
