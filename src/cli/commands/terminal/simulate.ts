import { formatAmount } from '../../../domain/money.js';
import { detectBrand, last4 } from '../../../domain/cards.js';
import { randomToken } from '../../../domain/ids.js';
import type { PaymentIntent } from '../../../domain/payment-intents.js';
import { ReaderHello } from '../../../domain/reader-protocol.js';
import type { Refund } from '../../../domain/refunds.js';
import {
  ALL_READER_MODELS,
  PRESENT_OUTCOMES,
  PAYMENT_ONLY_FIELDS,
  PROCESSORS,
  processorOf,
  READ_METHODS,
  READER_MODELS,
  ReaderPresent,
  SELF_OWNED_PROCESSOR,
  ReaderPresentFields,
  type ReadMethod,
  TipAmount,
} from '../../../domain/terminal-readers.js';
import type { Customer, CustomerAction, CustomerAnswer, SimulatorSink } from '../../../terminal/simulator.js';
import { defineCommand, flag, flagNamer, type OptionsOf } from '../../command.js';
import { CancelError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { checkedBody } from '../../flags.js';
import type { IO } from '../../io/io.js';
import { answerCheck, wholeNumber } from '../../prompts.js';
import { withActivationCodeHint } from '../readers/activate.js';

export interface SimulateOptions {
  reader: Omit<ReaderHello, 'type' | 'terminal_reader_id'>;
  /** What the customer does in a script; undefined: ask at the TTY. */
  answer: CustomerAnswer | undefined;
  once: boolean;
}

const flags = {
  processor: flag.choice('--processor <p>', 'Processor of the reader (default: the --model\'s, or A with --activation-code: self-owned readers are processor A; else asked for at a terminal)', PROCESSORS),
  model: flag.choice('--model <model>', `Reader model: ${READER_MODELS.A.join(', ')} (processor A); ${READER_MODELS.B.join(', ')} (processor B)`, ALL_READER_MODELS, { prompted: true }),
  serial: flag.string('--serial <serial>', 'Be the reader with this serial number (default: a new developer reader with a generated serial)', { field: 'serial_number', conflicts: ['serialNumber'] }),
  serialNumber: flag.string('--serial-number <serial>', 'Same as --serial', { field: 'serial_number' }),
  activationCode: flag.string('--activation-code <code>', 'Activate this self-owned processor A reader with a code from: pay readers activation-code'),
  label: flag.string('--label <text>', 'A name for the reader'),
  outcome: flag.choice('--outcome <outcome>', 'What the customer\'s card does, without prompts (default approved)', PRESENT_OUTCOMES),
  card: flag.string('--card <number>', 'Present this test card (see pay sandbox cards): its outcome applies, e.g. 3566002020360505 (jcb, processor B only)', { field: 'card_number', conflicts: ['cardNumber'] }),
  cardNumber: flag.string('--card-number <number>', 'Same as --card', { field: 'card_number' }),
  tipAmount: flag.int('--tip-amount <n>', 'Tip the customer adds, in minor units (amount_received = amount + tip)'),
  availableAmount: flag.int('--available-amount <n>', 'What the card can cover: below the total, only this is captured (partial authorization)'),
  method: flag.choice('--method <method>', 'How the card is read (default tap)', READ_METHODS),
  once: flag.bool('--once', 'Exit after the first action ends (answered or canceled): handy in CI'),
};
type SimulateFlags = OptionsOf<Record<never, never>, typeof flags>;

export const simulate = defineCommand({
  name: 'simulate',
  description: 'Be a terminal reader: connect to the service, receive the payments and refunds sent to it, and answer as the customer would',
  flags,
  examples: [
    'pay terminal simulate --processor A --model a-countertop           # prompts at each payment',
    'pay terminal simulate --processor B --model b-mobile --json --outcome approved --tip-amount 200',
    'pay terminal simulate --processor A --model a-handheld --serial SN-0001 --activation-code ABCD-1234',
    'pay terminal simulate --processor B --model b-countertop --card 3566002020360505 --once',
    'pay terminal simulate --processor A --model a-countertop --available-amount 500 --method insert',
  ],
  jsonLines: 'one object a line, its "type" saying which: registered (first, with terminal_reader_id), action, result, refused, canceled, reconnecting.',
  run: async (given, f) => run(await options(given, f), f),
});

/** Flags → options, checked with the protocol's own schemas: a bad value is a usage error naming the flag. */
async function options(given: SimulateFlags, f: Factory): Promise<SimulateOptions> {
  // Nothing to ask when it is known: a code activates a self-owned reader, a processor A model; a model is of one processor.
  const processor =
    given.processor ??
    (given.activationCode !== undefined
      ? SELF_OWNED_PROCESSOR
      : given.model !== undefined
        ? processorOf(given.model)
        : await f.io.choose('--processor', 'Processor of the reader', PROCESSORS.map((p) => ({ name: `Processor ${p}`, value: p }))));
  const models = (READER_MODELS as Record<string, readonly string[]>)[processor] ?? ALL_READER_MODELS;
  const model = given.model ?? (await f.io.choose('--model', 'Reader model', models.map((m) => ({ name: m, value: m }))));
  // A bad value is named as its flag was given (--serial or --serial-number, --card or --card-number).
  const flagFor = flagNamer(flags, {}, given);
  const { type: _type, ...reader } = checkedBody(
    ReaderHello,
    { type: 'hello', serial_number: given.serial ?? given.serialNumber ?? newSerial(), processor, model, label: given.label, activation_code: given.activationCode },
    flagFor,
  );
  const scripted = { outcome: given.outcome, card_number: given.card ?? given.cardNumber, tip_amount: given.tipAmount, available_amount: given.availableAmount, method: given.method };
  const answer = checkedBody(ReaderPresent, scripted, flagFor);
  // Flags answer for the customer; without any, a person at the TTY does (else: approved).
  const answered = Object.values(scripted).some((v) => v !== undefined);
  return { reader, answer: answered || !f.io.canPrompt ? answer : undefined, once: given.once };
}

/** A newly ordered developer reader's serial number. */
const newSerial = () => `SIM-${randomToken(10).toUpperCase()}`;

export async function run(options: SimulateOptions, f: Factory): Promise<void> {
  const client = await f.client();
  const { ReaderSimulator } = await import('../../../terminal/simulator.js');
  const answer = options.answer;
  const customer: Customer = answer === undefined ? (action, signal) => askCustomer(f.io, action, signal) : async (action) => (action.type === 'refund_payment' ? refundAnswer(answer) : answer);
  const simulator = new ReaderSimulator({
    baseUrl: client.baseUrl,
    headers: client.authHeaders(),
    client,
    reader: options.reader,
    customer,
    sink: f.io.json ? jsonSink(f.io) : humanSink(f.io),
    once: options.once,
    trace: client.tracer,
  });
  void f.io.untilStopped().then(() => simulator.stop());
  let cancelled = false;
  try {
    await simulator.run();
  } catch (error) {
    // Ctrl-C at a prompt stops the reader as Ctrl-C anywhere else does.
    if (!(error instanceof CancelError)) throw withActivationCodeHint(error);
    cancelled = true;
  }
  // Interrupted (Ctrl-C) exits 130 as DESIGN section 8 says; --once done or SIGTERM ends cleanly.
  if (cancelled || f.io.interrupted) throw new CancelError('Interrupted: the reader stopped and is offline now.');
  if (!f.io.json) f.io.info('Reader stopped: it is offline now.');
}

/** The scripted answer to a refund: the card, without what only a payment takes (a tip, what the card covers). */
function refundAnswer(answer: CustomerAnswer): CustomerAnswer {
  const refund = { ...answer };
  for (const field of PAYMENT_ONLY_FIELDS) delete refund[field];
  return refund;
}
const subject = (action: CustomerAction) => (action.type === 'refund_payment' ? `refund ${action.refund_id} of ${action.payment_intent_id}` : `payment ${action.payment_intent_id}`);
const address = (action: CustomerAction) => (action.type === 'refund_payment' ? { refund_id: action.refund_id, payment_intent_id: action.payment_intent_id } : { payment_intent_id: action.payment_intent_id });

/** One JSON line per registration, action, result and reconnection, on stdout. */
function jsonSink(io: IO): SimulatorSink {
  const line = (value: object) => io.printJSONLine(value);
  return {
    registered: (reader, reconnected) =>
      line({ type: 'registered', terminal_reader_id: reader.id, serial_number: reader.serial_number, processor: reader.processor, model: reader.model, label: reader.label, device_type: reader.device_type, status: reader.status, reconnected }),
    action: (action) => line({ type: 'action', action: action.type, ...address(action), amount: action.amount, currency: action.currency }),
    answered: (action, _answer, object) => line({ type: 'result', action: action.type, ...address(action), status: object.status, object }),
    refused: (action, error) => line({ type: 'refused', action: action.type, ...address(action), error: { status: error.status, code: error.code, message: error.message, param: error.param } }),
    canceled: (action, reason) => line({ type: 'canceled', action: action.type, ...address(action), reason }),
    lost: (reason, retryInMs) => line({ type: 'reconnecting', reason, retry_in_ms: retryInMs }),
  };
}

/** One line per registration, action and result on stdout; connection trouble on stderr. */
function humanSink(io: IO): SimulatorSink {
  const c = io.color;
  return {
    registered(reader, reconnected) {
      io.out(`Reader ${reader.id} ${reconnected ? 'reconnected' : 'online'} · serial ${reader.serial_number} · processor ${reader.processor} · model ${reader.model} · ${reader.device_type}`);
      if (!reconnected) io.info(io.canPrompt ? 'Waiting for payments: confirm a card_present intent on this reader. Ctrl-C stops it.' : 'Waiting for payments. Ctrl-C stops it.');
    },
    action: (action) => io.out(`${c.cyan('→')} ${subject(action)}: ${formatAmount(action.amount, action.currency)}, waiting for the customer`),
    answered: (action, answer, object) => io.out(resultLine(io, action, answer, object)),
    refused: (action, error) => io.out(`${c.red('✗')} ${subject(action)} refused by the service: ${error.message} (${error.code})`),
    canceled: (action, reason) => io.out(`${c.yellow('–')} ${subject(action)}: ${reason}`),
    lost: (reason, retryInMs) => io.warn(`Connection lost (${reason}); reconnecting in ${(retryInMs / 1000).toFixed(1)}s…`),
  };
}

function resultLine(io: IO, action: CustomerAction, answer: CustomerAnswer, object: PaymentIntent | Refund): string {
  const c = io.color;
  const card = answer.card_number === undefined ? '' : `, ${detectBrand(answer.card_number) ?? 'card'} •••• ${last4(answer.card_number)}`;
  const how = `${answer.method ?? 'tap'}${card}`;
  if (object.object === 'refund') {
    return object.status === 'succeeded'
      ? `${c.green('✓')} ${subject(action)} confirmed on the reader (${how}): ${formatAmount(object.amount, object.currency)} refunded`
      : `${c.red('✗')} ${subject(action)} ${object.status}: ${object.failure_reason ?? ''}`.trimEnd();
  }
  if (object.status !== 'succeeded' && object.status !== 'requires_capture') {
    const error = object.last_payment_error;
    return `${c.red('✗')} ${subject(action)} declined (${how}): ${error?.code ?? object.status}. ${error?.message ?? ''}`.trimEnd();
  }
  const received = object.status === 'requires_capture' ? object.amount_capturable : object.amount_received;
  const notes = [
    object.tip_amount > 0 ? `tip ${formatAmount(object.tip_amount, object.currency)}` : '',
    received < object.amount + object.tip_amount ? `partial authorization: ${formatAmount(received, object.currency)} of ${formatAmount(object.amount + object.tip_amount, object.currency)}` : '',
  ].filter(Boolean);
  const verb = object.status === 'requires_capture' ? 'authorized' : 'received';
  return `${c.green('✓')} ${subject(action)} ${object.status} (${how}): ${formatAmount(received, object.currency)} ${verb}${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

const DECLINES = [
  { name: 'Card declined', value: 'declined' },
  { name: 'Insufficient funds', value: 'insufficient_funds' },
  { name: 'Expired card', value: 'expired_card' },
  { name: 'Incorrect CVC', value: 'incorrect_cvc' },
  { name: 'HSA/FSA card (not supported)', value: 'hsa_fsa' },
] as const;

const METHODS: Array<{ name: string; value: ReadMethod }> = [
  { name: 'Tap (contactless)', value: 'tap' },
  { name: 'Insert (chip)', value: 'insert' },
  { name: 'Swipe (magnetic stripe)', value: 'swipe' },
  { name: 'Wallet (phone or watch)', value: 'wallet' },
];

/** A prompt's answer is checked as it is typed with the rule the service applies to the field. */
const fieldCheck = (field: 'available_amount' | 'card_number') => answerCheck(ReaderPresentFields.shape[field], field === 'card_number' ? undefined : wholeNumber);

/** A person plays the customer at the TTY: tap, insert, swipe, wallet, decline, tip, partial amount. */
async function askCustomer(io: IO, action: CustomerAction, signal: AbortSignal): Promise<CustomerAnswer> {
  const total = formatAmount(action.amount, action.currency);
  if (action.type === 'refund_payment') {
    const choice = await io.choose('--outcome', `Refund ${total}: the customer presents their card to confirm it`, [...METHODS, { name: 'Decline the refund', value: 'decline' as const }], { signal });
    return choice === 'decline' ? { outcome: 'declined' } : { method: choice };
  }
  const answer: CustomerAnswer = {};
  for (;;) {
    const extras = [answer.tip_amount ? `tip ${formatAmount(answer.tip_amount, action.currency)}` : '', answer.available_amount === undefined ? '' : `card covers ${formatAmount(answer.available_amount, action.currency)}`, answer.card_number ? `card •••• ${last4(answer.card_number)}` : ''].filter(Boolean);
    const choice = await io.choose('--outcome', `Payment of ${total}${extras.length ? ` (${extras.join(', ')})` : ''}: how does the customer pay?`, [
      ...METHODS,
      { name: 'Add a tip…', value: 'tip' as const },
      { name: 'Partial amount: the card covers only part…', value: 'partial' as const },
      { name: 'Use another test card number…', value: 'card' as const },
      { name: 'Decline…', value: 'decline' as const },
    ], { signal });
    switch (choice) {
      case 'tip':
        answer.tip_amount = Number(await io.ask('--tip-amount', 'Tip, in minor units', { validate: answerCheck(TipAmount(action.amount), wholeNumber), signal }));
        continue;
      case 'partial':
        answer.available_amount = Number(await io.ask('--available-amount', 'What the card can cover, in minor units', { validate: fieldCheck('available_amount'), signal }));
        continue;
      case 'card': {
        // Masked as pay payment-methods create asks for one: a card number is never left on the screen.
        const text = await io.askSecret('--card', 'Card number (see pay sandbox cards)', { validate: fieldCheck('card_number'), signal });
        answer.card_number = ReaderPresent.parse({ card_number: text }).card_number;
        continue;
      }
      case 'decline':
        // A declined card pays nothing: the tip, the amount it covers and another card number chosen before go with it (the service refuses them together).
        return { outcome: await io.choose('--outcome', 'Why is it declined?', [...DECLINES], { signal }) };
      default:
        return { ...answer, method: choice };
    }
  }
}

