import { toApiError } from '../client/api-error.js';
import { NetworkError } from '../client/errors.js';
import type { Client, RequestTrace } from '../client/client.js';
import { ReconnectingSocket } from '../client/reconnecting-socket.js';
import { endpoints } from '../domain/endpoints.js';
import { ApiError } from '../domain/errors.js';
import type { PaymentIntent } from '../domain/payment-intents.js';
import { CLOSE_REPLACED, type ReaderAction, type ReaderFrame, type ReaderHello, type ReaderResult, type ServerFrame } from '../domain/reader-protocol.js';
import type { Refund } from '../domain/refunds.js';
import type { TerminalReader } from '../domain/terminal-readers.js';

/** An action that needs the customer: a payment, or a same-day refund to confirm with the card. */
export type CustomerAction = Exclude<ReaderAction, { type: 'cancel_action' }>;

/** What the customer did: the result frame without its addressing. */
export type CustomerAnswer = Omit<ReaderResult, 'type' | 'payment_intent_id' | 'refund_id'>;

/**
 * Decides what the customer does (a person at prompts, or flags in a script). It may
 * take as long as a person takes; `signal` aborts when the service cancels the action or
 * the simulator stops.
 */
export type Customer = (action: CustomerAction, signal: AbortSignal) => Promise<CustomerAnswer>;

/** What the simulator reports, for its caller to show. */
export interface SimulatorSink {
  /** The service knows the reader and it is online; `reconnected` after a lost connection. */
  registered(reader: TerminalReader, reconnected: boolean): void;
  /** A payment or refund arrived: the customer is asked. */
  action(action: CustomerAction): void;
  /** The service acknowledged the customer's answer (or, its ack lost with the connection, was read after reconnecting): the intent or refund as it now is. */
  answered(action: CustomerAction, answer: CustomerAnswer, object: PaymentIntent | Refund): void;
  /** The service refused the answer (it changed nothing). */
  refused(action: CustomerAction, error: ApiError): void;
  /** The action ended without an answer: canceled, or no longer pending after a reconnect. */
  canceled(action: CustomerAction, reason: string): void;
  /** The connection is down; the next try is in `retryInMs`. */
  lost(reason: string, retryInMs: number): void;
}

export interface SimulatorOptions {
  baseUrl: string;
  /** The profile's auth headers. */
  headers: Record<string, string>;
  /** The profile's client: reads what became of an action that ended while the reader was offline. */
  client: Pick<Client, 'call'>;
  /** Who the reader is (DESIGN section 7); the activation code is used on the first connection only. */
  reader: Omit<ReaderHello, 'type' | 'terminal_reader_id'>;
  customer: Customer;
  sink: SimulatorSink;
  /** Stop once the first action ends (answered, refused or canceled); a refusal then fails the run. */
  once?: boolean | undefined;
  /** `--verbose`: each connection's upgrade request and answer. */
  trace?: RequestTrace | undefined;
}

interface Current {
  action: CustomerAction;
  controller: AbortController;
  /** The customer's answer, once given. */
  answer: CustomerAnswer | undefined;
  /** Sent on the open connection, waiting for its ack. */
  sent: boolean;
  /** Settles once the customer was asked and answered, or the question was taken away (and its prompt cleared). */
  asked: Promise<void>;
}

const actionKey = (action: { type: 'process_payment_intent'; payment_intent_id: string } | { type: 'refund_payment'; refund_id: string }) =>
  action.type === 'refund_payment' ? `refund ${action.refund_id}` : `payment ${action.payment_intent_id}`;

/**
 * The reader side of the terminal reader protocol (described in
 * src/sandbox/hub/terminal.ts): connects, registers, hands each action to the customer
 * and answers with what the customer did, and reconnects with backoff (announced
 * through the sink) until stopped. No terminal I/O here: the caller's sink and customer
 * do that.
 */
export class ReaderSimulator {
  private readonly socket: ReconnectingSocket<ServerFrame, ReaderFrame>;
  private registered = false;
  private readerId: string | undefined;
  private current: Current | undefined;
  /** Settles once what the last ended action came to was said. */
  private ended: Promise<void> = Promise.resolve();

  constructor(private readonly options: SimulatorOptions) {
    const { baseUrl } = options;
    this.socket = new ReconnectingSocket({
      baseUrl,
      path: endpoints['terminal_readers.connect'].path,
      headers: options.headers,
      closeReason: 'reader stopped',
      trace: options.trace,
      giveUp: { beforeReady: true, error: (reason) => new NetworkError(`Could not connect the reader to the service at ${baseUrl} (${reason}).`, baseUrl) },
      handlers: {
        opened: () => {
          // After the first registration the reader is known by its serial number: no code again.
          const { activation_code, ...reader } = this.options.reader;
          this.socket.send({ type: 'hello', ...reader, ...(this.readerId === undefined ? { activation_code } : {}) });
        },
        heartbeatOf: (frame) => (frame.type === 'registered' ? frame.heartbeat_ms : undefined),
        frame: (frame) => this.receive(frame),
        closed: (code) => {
          this.registered = false;
          if (this.current) this.current.sent = false;
          if (code === CLOSE_REPLACED) {
            this.failWith(new ApiError(409, 'reader_replaced', `Another connection of reader ${this.readerId} replaced this one (another pay terminal simulate with its serial number, say): only one can be the reader at a time.`));
          }
        },
        lost: (reason, retryInMs) => this.options.sink.lost(reason, retryInMs),
      },
    });
  }

  /**
   * Resolves once stopped (or, with `once`, when the first action ended); rejects when
   * the service refuses the reader, the first connection cannot be made, the customer
   * fails (a prompt cancelled), or another connection of this reader replaces this one.
   */
  run(): Promise<void> {
    return this.socket.run();
  }

  /** Disconnects (the reader goes offline) and ends `run`. */
  stop(): void {
    this.current?.controller.abort();
    this.socket.stop();
  }

  private failWith(error: Error): void {
    this.current?.controller.abort();
    this.socket.fail(error);
  }

  /** Results go only to a registered reader's connection. */
  private send(frame: ReaderFrame): boolean {
    return this.registered && this.socket.send(frame);
  }

  private receive(frame: Exclude<ServerFrame, { type: 'ping' }>): void {
    switch (frame.type) {
      case 'registered':
        return this.onRegistered(frame.reader);
      case 'process_payment_intent':
      case 'refund_payment':
        return this.begin(frame);
      case 'cancel_action': {
        const current = this.current;
        const ended = frame.refund_id === undefined ? { type: 'process_payment_intent' as const, payment_intent_id: frame.payment_intent_id } : { type: 'refund_payment' as const, refund_id: frame.refund_id };
        if (current && actionKey(current.action) === actionKey(ended)) void this.end(current, () => this.options.sink.canceled(current.action, frame.reason));
        return;
      }
      case 'ack': {
        const current = this.current;
        if (current?.answer) void this.end(current, () => this.options.sink.answered(current.action, current.answer!, frame.object));
        return;
      }
      case 'error': {
        const error = toApiError({ status: frame.status, headers: {}, body: frame });
        // Before registration the service refused the reader itself.
        if (!this.registered) return this.failWith(error);
        const current = this.current;
        if (!current?.sent) return;
        void this.end(current, () => this.options.sink.refused(current.action, error)).then(() => {
          if (this.options.once) this.failWith(error);
        });
        return;
      }
    }
  }

  private onRegistered(reader: TerminalReader): void {
    const reconnected = this.readerId !== undefined;
    this.readerId = reader.id;
    this.registered = true;
    this.options.sink.registered(reader, reconnected);
    const current = this.current;
    // The action this reader was working on ended while it was offline; a pending one follows this frame.
    if (current && (reader.action === null || actionKey(reader.action) !== actionKey(current.action))) {
      void this.end(current, () => this.endedOffline(current));
    }
    if (current?.answer && !current.sent && this.current === current) this.sendResult(current);
  }

  /**
   * Says what an action that ended while the reader was offline came to, as the service
   * has it: the customer's answer may have been applied and only its ack lost with the
   * connection, so "no longer pending" alone does not say canceled.
   */
  private async endedOffline(current: Current): Promise<void> {
    const { action, answer } = current;
    const { sink, client } = this.options;
    let object: PaymentIntent | Refund;
    try {
      object =
        action.type === 'refund_payment'
          ? await client.call<Refund>('refunds.get', { params: { id: action.refund_id } })
          : await client.call<PaymentIntent>('payment_intents.get', { params: { id: action.payment_intent_id } });
    } catch (error) {
      return sink.canceled(action, `no longer pending on the service; what it came to could not be read (${error instanceof Error ? error.message : String(error)})`);
    }
    // Without an answer from this reader, or canceled, or waiting again (on another reader, say), its question was taken away.
    const taken = answer === undefined || object.status === 'canceled' || object.status === 'requires_action' || object.status === 'pending';
    if (taken) return sink.canceled(action, `no longer pending on this reader (now ${object.status}; it changed while the reader was offline)`);
    sink.answered(action, answer, object);
  }

  private begin(action: CustomerAction): void {
    const previous = this.current;
    if (previous && actionKey(previous.action) === actionKey(action)) return;
    if (previous) void this.end(previous, () => this.options.sink.canceled(previous.action, `replaced by ${actionKey(action)}`));
    // What the previous action came to (read from the service, maybe) is said before this one is shown and asked.
    const previousEnded = this.ended;
    const controller = new AbortController();
    const current: Current = { action, controller, answer: undefined, sent: false, asked: Promise.resolve() };
    this.current = current;
    // Taken away: a prompt clears within the turn it is aborted in; a customer that does not listen is not waited for.
    const takenAway = new Promise<undefined>((resolve) => controller.signal.addEventListener('abort', () => setImmediate(() => resolve(undefined)), { once: true }));
    current.asked = previousEnded.then(async () => {
      if (controller.signal.aborted) return;
      this.options.sink.action(action);
      try {
        const answer = await Promise.race([this.options.customer(action, controller.signal), takenAway]);
        if (answer === undefined || this.current !== current || controller.signal.aborted) return;
        current.answer = answer;
        this.sendResult(current);
      } catch (error) {
        if (this.current === current && !controller.signal.aborted) this.failWith(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** Sends the answer now if connected; otherwise on reconnection, when the service sends the action again. */
  private sendResult(current: Current): void {
    const address = current.action.type === 'refund_payment' ? { refund_id: current.action.refund_id } : { payment_intent_id: current.action.payment_intent_id };
    current.sent = this.send({ type: 'result', ...address, ...current.answer });
  }

  /**
   * The action is over: its question is taken away, and once its prompt has cleared its
   * lines (a prompt clears as it settles: said before, the news was erased with it, and
   * the screen kept a dead question), what it came to is said.
   */
  private end(current: Current, report: () => void | Promise<void>): Promise<void> {
    if (this.current !== current) return Promise.resolve();
    this.current = undefined;
    current.controller.abort();
    this.ended = current.asked.then(async () => {
      await report();
      if (this.options.once) this.stop();
    });
    return this.ended;
  }
}
