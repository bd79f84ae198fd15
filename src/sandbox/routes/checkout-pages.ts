import type { FastifyInstance, FastifyReply } from 'fastify';
import { maskCardNumbers } from '../../domain/cards.js';
import type { CheckoutSession } from '../../domain/checkout.js';
import { checkoutPage, type FieldName, messagePage, pageCsp, paidPage } from '../pages/checkout.js';
import { originOf, pageCall } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import { getCheckoutSession, issuesOf, openLinkSession, payCheckoutSession } from '../services/checkout.js';
import { getPaymentIntent } from '../services/payment-intents.js';

/**
 * The hosted checkout page (`/checkout/{id}`) and payment links (`/pay/{id}`), through
 * the pipeline's page sequence: no auth headers, the unguessable id in the URL is the
 * capability. The form posts back to the same path, which runs the API's own
 * payment-method and confirm services.
 */
export function checkoutPageRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  // Card details are typed here: no caching, no script but the page's own, no framing.
  // A page with the session's form names where paying it leads.
  const html = (reply: FastifyReply, status: number, body: string, form?: CheckoutSession) =>
    reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', pageCsp(form?.success_url))
      .header('referrer-policy', 'no-referrer')
      .send(body);

  const notFound = (reply: FastifyReply) => html(reply, 404, messagePage('Page not found', 'This payment page does not exist. Check the link you were given.'));

  /** The session as it is now, or undefined when there is none. */
  const sessionOf = async (id: string): Promise<CheckoutSession | undefined> => {
    const found = await pageCall(sandbox, 'checkout_session', id, (ctx) => getCheckoutSession(ctx, id));
    return found && 'value' in found ? found.value : undefined;
  };

  /** What the session's card was charged. */
  const receivedOf = async (session: CheckoutSession): Promise<number> => {
    const found = await pageCall(sandbox, 'checkout_session', session.id, (ctx) => getPaymentIntent(ctx, session.payment_intent_id).amount_received);
    return found && 'value' in found ? found.value : session.amount;
  };

  /** A session that can no longer be paid: its receipt, success redirect, or the reason. */
  async function closed(reply: FastifyReply, session: CheckoutSession) {
    if (session.status === 'complete') {
      if (session.success_url === null) return html(reply, 200, paidPage(session, await receivedOf(session)));
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
      const session = await sessionOf(request.params.id);
      if (!session) return notFound(reply);
      return session.status === 'open' ? html(reply, 200, checkoutPage(session), session) : closed(reply, session);
    });

    scope.post<{ Params: { id: string }; Body: Record<string, string> | undefined }>('/checkout/:id', async (request, reply) => {
      const id = request.params.id;
      const form = request.body ?? {};
      // Any refusal of the payment (rolled back) is shown like a decline.
      const paid = await pageCall(sandbox, 'checkout_session', id, (ctx) => payCheckoutSession(ctx, id, form));
      const session = paid && (await sessionOf(id));
      if (!paid || !session) return notFound(reply);
      if ('value' in paid || session.status !== 'open') return closed(reply, session);
      // A program paying the page (a flow's pay_checkout step) is told why in the API's own error body.
      if (/\bapplication\/json\b/.test(request.headers.accept ?? '')) return reply.code(paid.declined.status).send(paid.declined.toBody());
      // Written back as typed, but for a card number put in the wrong field.
      const values: Partial<Record<FieldName, string>> = { exp: maskCardNumbers(form.exp ?? ''), zip: maskCardNumbers(form.zip ?? '') };
      return html(reply, paid.declined.status, checkoutPage(session, { errors: issuesOf(paid.declined), values }), session);
    });

    scope.get<{ Params: { id: string } }>('/pay/:id', async (request, reply) => {
      const id = request.params.id;
      const opened = await pageCall(sandbox, 'payment_link', id, (ctx) => openLinkSession(ctx, id, originOf(request)));
      if (!opened) return notFound(reply);
      if ('declined' in opened) return html(reply, opened.declined.status, messagePage('This payment link is not available', opened.declined.message));
      return reply.redirect(`/checkout/${opened.value.id}`, 303);
    });
  });
}
