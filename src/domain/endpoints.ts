/**
 * The one table of the service's paths, served by the sandbox and called by the client.
 * Paths use `{name}` placeholders; fixed sub-paths sit beside `{id}` ones.
 */
export const endpoints = {
  'customers.create': { method: 'POST', path: '/v1/customers' },
  'customers.get': { method: 'GET', path: '/v1/customers/{id}' },
  'customers.list': { method: 'GET', path: '/v1/customers' },

  'payment_methods.create': { method: 'POST', path: '/v1/payment-methods' },
  'payment_methods.get': { method: 'GET', path: '/v1/payment-methods/{id}' },
  'payment_methods.list': { method: 'GET', path: '/v1/payment-methods' },
  'payment_methods.attach': { method: 'PUT', path: '/v1/payment-methods/{id}/attach' },

  'payment_intents.create': { method: 'POST', path: '/v1/payment-intents' },
  'payment_intents.get': { method: 'GET', path: '/v1/payment-intents/{id}' },
  'payment_intents.list': { method: 'GET', path: '/v1/payment-intents' },
  'payment_intents.update': { method: 'POST', path: '/v1/payment-intents/{id}' },
  'payment_intents.confirm': { method: 'POST', path: '/v1/payment-intents/{id}/confirm' },
  'payment_intents.capture': { method: 'POST', path: '/v1/payment-intents/{id}/capture' },
  'payment_intents.cancel': { method: 'POST', path: '/v1/payment-intents/{id}/cancel' },

  'charges.get': { method: 'GET', path: '/v1/charges/{id}' },
  'charges.list': { method: 'GET', path: '/v1/charges' },

  'refunds.create': { method: 'POST', path: '/v1/refunds' },
  'refunds.get': { method: 'GET', path: '/v1/refunds/{id}' },
  'refunds.list': { method: 'GET', path: '/v1/refunds' },

  'checkout_sessions.create': { method: 'POST', path: '/v1/checkout-sessions' },
  'checkout_sessions.get': { method: 'GET', path: '/v1/checkout-sessions/{id}' },
  'checkout_sessions.list': { method: 'GET', path: '/v1/checkout-sessions' },

  'payment_links.create': { method: 'POST', path: '/v1/payment-links' },
  'payment_links.get': { method: 'GET', path: '/v1/payment-links/{id}' },
  'payment_links.list': { method: 'GET', path: '/v1/payment-links' },

  'subscriptions.create': { method: 'POST', path: '/v1/subscriptions' },
  'subscriptions.get': { method: 'GET', path: '/v1/subscriptions/{id}' },
  'subscriptions.list': { method: 'GET', path: '/v1/subscriptions' },
  'subscriptions.update': { method: 'POST', path: '/v1/subscriptions/{id}' },
  'subscriptions.retry': { method: 'POST', path: '/v1/subscriptions/{id}/retry' },
  'subscriptions.pause': { method: 'POST', path: '/v1/subscriptions/{id}/pause' },
  'subscriptions.resume': { method: 'POST', path: '/v1/subscriptions/{id}/resume' },
  'subscriptions.cancel': { method: 'POST', path: '/v1/subscriptions/{id}/cancel' },

  'terminal_readers.get': { method: 'GET', path: '/v1/terminal-readers/{id}' },
  'terminal_readers.list': { method: 'GET', path: '/v1/terminal-readers' },
  'terminal_readers.activation_code': { method: 'POST', path: '/v1/terminal-readers/activation-codes' },
  'terminal_readers.activate': { method: 'POST', path: '/v1/terminal-readers/activate' },
  'terminal_readers.connect': { method: 'GET', path: '/v1/terminal-readers/connect' },

  'webhook_endpoints.create': { method: 'POST', path: '/v1/webhook-endpoints' },
  'webhook_endpoints.get': { method: 'GET', path: '/v1/webhook-endpoints/{id}' },
  'webhook_endpoints.list': { method: 'GET', path: '/v1/webhook-endpoints' },
  'webhook_endpoints.delete': { method: 'DELETE', path: '/v1/webhook-endpoints/{id}' },

  'events.get': { method: 'GET', path: '/v1/events/{id}' },
  'events.list': { method: 'GET', path: '/v1/events' },
  'events.resend': { method: 'POST', path: '/v1/events/{id}/resend' },
  'listen': { method: 'GET', path: '/v1/listen' },

  'test_helpers.clock': { method: 'GET', path: '/v1/test-helpers/clock' },
  'test_helpers.clock_advance': { method: 'POST', path: '/v1/test-helpers/clock/advance' },
  'test_helpers.accounts_create': { method: 'POST', path: '/v1/test-helpers/accounts' },
  'test_helpers.reset': { method: 'POST', path: '/v1/test-helpers/reset' },
  'test_helpers.reader_present': { method: 'POST', path: '/v1/test-helpers/terminal-readers/{id}/present' },
} as const satisfies Record<string, { method: HttpMethod; path: string }>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type EndpointName = keyof typeof endpoints;

/** Fills `{name}` placeholders, each value URI-encoded. */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(value);
  });
}

/**
 * The table's path that a concrete path (`/v1/payment-methods/pm_1/attach`) is an instance
 * of, with the methods serving it; a fixed sub-path (`/activate`) before an `{id}` one.
 */
export function pathServing(path: string): { path: string; methods: HttpMethod[] } | undefined {
  const serving = Object.values(endpoints).filter((endpoint) => patternOf(endpoint.path).test(path));
  const placeholders = (at: string) => at.split('{').length;
  const fixed = serving.sort((a, b) => placeholders(a.path) - placeholders(b.path))[0];
  if (!fixed) return undefined;
  return { path: fixed.path, methods: serving.filter((endpoint) => endpoint.path === fixed.path).map((endpoint) => endpoint.method) };
}

/** The table's paths hold no character special in a pattern: only `{name}` becomes one segment. */
const patternOf = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);

export const isWrite = (method: string) => method === 'POST' || method === 'PUT' || method === 'DELETE';
