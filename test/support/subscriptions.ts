import { addDays } from '../../src/domain/schedule.js';

/** What the subscription tests need of a sandbox, in-process or a real process. */
interface SandboxLike {
  http(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  json(args: string[]): Promise<any>;
}

export const GOOD_CARD = '4242424242424242';

/** Set-up over the API, and `pay subscriptions create` with every required flag. */
export function subscriptionHelpers(sb: SandboxLike) {
  async function ok(method: string, path: string, body?: unknown) {
    const res = await sb.http(method, path, body);
    if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function card(customer: string, number = GOOD_CARD): Promise<string> {
    const pm = await ok('POST', '/v1/payment-methods', { type: 'card', card: { number, exp_month: 12, exp_year: 2045, cvc: '123' } });
    await ok('PUT', `/v1/payment-methods/${pm.id}/attach`, { customer_id: customer });
    return pm.id;
  }

  async function customerWithCard(number = GOOD_CARD) {
    const customer = (await ok('POST', '/v1/customers', { email: 'e2e-sub@example.com' })).id as string;
    return { customer, pm: await card(customer, number) };
  }

  const today = async () => ((await ok('GET', '/v1/test-helpers/clock')).now as string).slice(0, 10);

  /** `pay subscriptions create` with every required flag; the anchor `days` after the clock's today. */
  async function create(days: number, extra: string[] = [], number = GOOD_CARD) {
    const { customer, pm } = await customerWithCard(number);
    const anchor = addDays(await today(), days);
    return sb.json(['subscriptions', 'create', '--customer', customer, '--payment-method', pm, '--price', '2500', '--billing-cycle-anchor', anchor, '--interval-unit', 'month', '--interval-count', '1', ...extra]);
  }

  return { ok, card, customerWithCard, today, create };
}
