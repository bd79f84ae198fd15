import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CheckoutSession } from '../../domain/checkout.js';
import { ApiError } from '../../domain/errors.js';
import type { ObjectKind } from '../../domain/ids.js';
import { checkoutPage, type FieldName, messagePage, PAGE_CSP, paidPage } from '../pages/checkout.js';
import { keepingDeclines, originOf } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import { getCheckoutSession, issuesOf, openLinkSession, payCheckoutSession } from '../services/checkout.js';
import type { ServiceContext } from '../services/context.js';

/**
 * The hosted checkout page (`/checkout/{id}`) and payment links (`/pay/{id}`). No auth
 * headers: the unguessable id in the URL is the capability. The form posts back to the
 * same path, which runs the API's own payment-method and confirm services.
 */
export function checkoutPageRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  /** A context of the account owning the object, or undefined for an unknown id. */
  const contextOf = (kind: ObjectKind, id: string): ServiceContext | undefined => {
    const owner = sandbox.store.objects.ownerOf(kind, id);
    const account = owner === undefined ? undefined : sandbox.store.accounts.byId(owner);
    return account && sandbox.context(account);
  };

  // Card details are typed here: no caching, no script but the page's own, no framing.
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', PAGE_CSP)
      .header('referrer-policy', 'no-referrer')
      .send(body);

  const notFound = (reply: FastifyReply) => html(reply, 404, messagePage('Page not found', 'This payment page does not exist. Check the link you were given.'));

  /** A session that can no longer be paid: its receipt, success redirect, or the reason. */
  function closed(reply: FastifyReply, session: CheckoutSession) {
    if (session.status === 'complete') {
      if (session.success_url === null) return html(reply, 200, paidPage(session));
      const target = new URL(session.success_url);
      target.searchParams.set('session_id', session.id);
      return reply.redirect(target.href, 303);
    }
    return html(reply, 410, messagePage('This checkout has expired', 'The payment page is no longer open. Return to the merchant to start again.'));
  }

  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    scope.get<{ Params: { id: string } }>('/checkout/:id', async (request, reply) => {
      const ctx = contextOf('checkout_session', request.params.id);
      if (!ctx) return notFound(reply);
      const session = getCheckoutSession(ctx, request.params.id);
      return session.status === 'open' ? html(reply, 200, checkoutPage(session)) : closed(reply, session);
    });

    scope.post<{ Params: { id: string }; Body: Record<string, string> | undefined }>('/checkout/:id', async (request, reply) => {
      const id = request.params.id;
      const ctx = contextOf('checkout_session', id);
      if (!ctx) return notFound(reply);
      const form = request.body ?? {};
      const values: Partial<Record<FieldName, string>> = { exp: form.exp ?? '', zip: form.zip ?? '' };
      const outcome = attempt(() => sandbox.store.db.transaction(() => keepingDeclines(() => payCheckoutSession(ctx, id, form))));
      await sandbox.store.db.durable();
      const session = getCheckoutSession(ctx, id);
      if ('value' in outcome || session.status !== 'open') return closed(reply, session);
      const { declined } = outcome;
      return html(reply, declined.status, checkoutPage(session, { errors: issuesOf(declined), values }));
    });

    scope.get<{ Params: { id: string } }>('/pay/:id', async (request, reply) => {
      const ctx = contextOf('payment_link', request.params.id);
      if (!ctx) return notFound(reply);
      try {
        const session = sandbox.store.db.transaction(() => openLinkSession(contextOf('payment_link', request.params.id)!, request.params.id, originOf(request)));
        await sandbox.store.db.durable();
        return reply.redirect(`/checkout/${session.id}`, 303);
      } catch (error) {
        if (error instanceof ApiError) return html(reply, error.status, messagePage('This payment link is not available', error.message));
        throw error;
      }
    });
  });
}

/** Runs a payment in its transaction; any service error (rolled back) is shown like a decline. */
function attempt<T>(fn: () => { value: T } | { declined: ApiError }): { value: T } | { declined: ApiError } {
  try {
    return fn();
  } catch (error) {
    if (error instanceof ApiError) return { declined: error };
    throw error;
  }
}
