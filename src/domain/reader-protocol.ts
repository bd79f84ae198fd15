import { z } from 'zod';
import { IdOf } from './common.js';
import type { ErrorBody } from './errors.js';
import { requiredIssue } from './errors.js';
import type { PaymentIntent } from './payment-intents.js';
import type { Refund } from './refunds.js';
import {
  ActivationCodeInput,
  ModelInput,
  ProcessorInput,
  ReaderLabel,
  ReaderPresentFields,
  readerModelRule,
  outcomeOrCard,
  SerialNumber,
  type TerminalReader,
} from './terminal-readers.js';

// The terminal reader protocol over `GET /v1/terminal-readers/connect`, shared by the
// sandbox's hub (src/sandbox/hub/terminal.ts, where it is described) and the reader
// simulator (src/terminal/simulator.ts).

/** Reader → server, first: who the reader is. */
export const ReaderHello = z
  .strictObject({
    type: z.literal('hello'),
    serial_number: SerialNumber,
    processor: ProcessorInput,
    model: ModelInput,
    label: ReaderLabel.optional(),
    /** A self-owned processor A reader's code from support: activates it on the account. */
    activation_code: ActivationCodeInput.optional(),
    /** A reader that already knows its id (a reconnect) names it. */
    terminal_reader_id: IdOf('tmr').optional(),
  })
  .superRefine((hello, ctx) => {
    readerModelRule(hello, hello.activation_code !== undefined, ctx);
    if (hello.activation_code !== undefined && hello.terminal_reader_id !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['activation_code'], message: `reader ${hello.terminal_reader_id} is already activated: connect without an activation code` });
    }
  });
export type ReaderHello = z.output<typeof ReaderHello>;

/** Reader → server: what the customer did for the payment or refund the reader was sent. */
export const ReaderResult = ReaderPresentFields.extend({
  type: z.literal('result'),
  payment_intent_id: IdOf('pi').optional(),
  refund_id: IdOf('re').optional(),
}).superRefine((result, ctx) => {
  outcomeOrCard(result, ctx);
  if (result.payment_intent_id === undefined && result.refund_id === undefined) {
    ctx.addIssue(requiredIssue(['payment_intent_id'], 'name the payment_intent_id (or refund_id) this result answers'));
  } else if (result.payment_intent_id !== undefined && result.refund_id !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['refund_id'], message: 'a result answers one action: give payment_intent_id or refund_id, not both' });
  }
});
export type ReaderResult = z.output<typeof ReaderResult>;

export type ReaderFrame = z.input<typeof ReaderHello> | z.input<typeof ReaderResult> | { type: 'pong' };

/** Server → reader: an action for the reader (also sent again when a reader reconnects with one pending). */
export type ReaderAction =
  | { type: 'process_payment_intent'; payment_intent_id: string; amount: number; currency: string }
  | { type: 'refund_payment'; refund_id: string; payment_intent_id: string; amount: number; currency: string }
  /** Stop asking the customer: the payment (or, with refund_id, the refund) ended without the reader, for `reason`. */
  | { type: 'cancel_action'; payment_intent_id: string; refund_id?: string; reason: string };

export type ServerFrame =
  | { type: 'registered'; reader: TerminalReader; heartbeat_ms: number }
  | ReaderAction
  | { type: 'ack'; object: PaymentIntent | Refund }
  | ({ type: 'error'; status: number } & ErrorBody)
  | { type: 'ping' };

/** Close codes the hub uses; a reader does not reconnect after these. */
export const CLOSE_REPLACED = 4409;
export const CLOSE_REFUSED = 4400;
