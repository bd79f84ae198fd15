/**
 * The terminal reader hub: readers (`pay terminal simulate`, or any client of this
 * protocol) connect here and receive the payments and refunds to process (DESIGN
 * section 7, spec sections 3 and 8).
 *
 * Protocol (JSON text frames; schemas and types in src/domain/reader-protocol.ts):
 *
 *   GET /v1/terminal-readers/connect with the auth headers of every request
 *   (`<prefix>-account`, `<prefix>-api-key`); a refused upgrade answers with the
 *   service's usual error body (401, 403).
 *
 *   reader → server  {type:'hello', serial_number, processor, model, label?,
 *                    activation_code?, terminal_reader_id?}        first, once.
 *                    The reader is the account's reader of that id, else of that serial
 *                    number. An unknown serial is registered: without a code as a newly
 *                    ordered developer reader (they arrive activated), with one as a
 *                    self-owned processor A reader the code activates. Processor and
 *                    model must be the known reader's; a new label renames it.
 *   server → reader  {type:'registered', reader, heartbeat_ms}    the reader is online;
 *                    then, if it holds an action (the intent was confirmed while it was
 *                    offline, or it reconnects mid-payment), that action again.
 *   server → reader  {type:'process_payment_intent', payment_intent_id, amount, currency}
 *                    {type:'refund_payment', refund_id, payment_intent_id, amount, currency}
 *                        a same-day processor B refund, confirmed with the customer's card;
 *                    {type:'cancel_action', payment_intent_id, refund_id?, reason}
 *                        stop asking the customer: the intent was canceled, or a card was
 *                        presented through the present test helper instead.
 *   reader → server  {type:'result', payment_intent_id | refund_id, outcome? | card_number?,
 *                    tip_amount?, available_amount?, method?}
 *                    what the customer did, for the action the reader holds now; it runs
 *                    what `POST /v1/test-helpers/terminal-readers/{id}/present` runs, in
 *                    one transaction.
 *   server → reader  {type:'ack', object}    the payment intent or refund as it now is (a
 *                    declined card is acknowledged too: the intent is back in
 *                    requires_payment_method with last_payment_error);
 *                    {type:'error', status, error: {type, code, message, param?}}  the
 *                    frame was refused and changed nothing. A refused hello then closes
 *                    the connection (4400).
 *   both ways        {type:'ping'} every heartbeat_ms, answered by {type:'pong'}: a reader
 *                    that has not answered the previous ping when the next is due is
 *                    disconnected, and so offline.
 *
 * One connection a reader: a newer connection of the same reader replaces the older one,
 * which is closed with 4409 and should not reconnect. A reset of the account erases its
 * readers: their connections are closed with 1012, and they connect and register again. A reader is online exactly while
 * it is registered on an open connection (ReaderConnections).
 */
import type { WebSocket } from 'ws';
import { endpoints } from '../../domain/endpoints.js';
import { ApiError, invalid, parseOrThrow } from '../../domain/errors.js';
import { CLOSE_REFUSED, CLOSE_REPLACED, ReaderHello, ReaderResult, type ServerFrame } from '../../domain/reader-protocol.js';
import type { Sandbox } from '../sandbox.js';
import { answerOnReader, pendingAction } from '../services/reader-actions.js';
import { failRefundOnOfflineReader } from '../services/refunds.js';
import { getReader, identifyReader } from '../services/terminal-readers.js';
import type { Account } from '../store/accounts.js';
import { type HubConnection, WebSocketHub } from './hub.js';
import type { UpgradeRouter } from './upgrade.js';

export const DEFAULT_READER_HEARTBEAT_MS = 10_000;

/** WebSocket's "service restart": the reader connects again (and registers anew). */
const CLOSE_SERVICE_RESTART = 1012;

interface Connection extends HubConnection {
  account: Account;
  /** Set by a successful hello. */
  readerId: string | undefined;
  /** Marks the reader offline again. */
  release: (() => void) | undefined;
}

export class TerminalHub extends WebSocketHub<Connection, ServerFrame> {
  constructor(sandbox: Sandbox, upgrades: UpgradeRouter, heartbeatMs = DEFAULT_READER_HEARTBEAT_MS) {
    super(sandbox, upgrades, endpoints['terminal_readers.connect'].path, heartbeatMs);
  }

  protected accept(account: Account): (ws: WebSocket) => Connection {
    return (ws) => ({ ws, account, readerId: undefined, alive: true, release: undefined });
  }

  /** A reader says hello first. */
  protected connected(): void {}

  protected override disconnected(connection: Connection): void {
    connection.release?.();
    const { readerId, account } = connection;
    // Gone offline: not replaced by a newer connection, nor left by a sandbox that stops (its readers reconnect to the next).
    if (readerId === undefined || this.closed || this.sandbox.readers.isOnline(account.id, readerId)) return;
    try {
      this.sandbox.store.db.transaction(() => failRefundOnOfflineReader(this.sandbox.context(account), readerId));
    } catch (error) {
      // A socket's close event is no place to throw: told as work after a commit is.
      this.sandbox.store.db.report(error);
    }
  }

  protected receive(connection: Connection, text: string): void {
    let type: unknown;
    try {
      let frame: unknown;
      try {
        frame = JSON.parse(text);
      } catch {
        throw new ApiError(400, 'invalid_json', 'Frames are JSON text: {"type": "hello" | "result" | "pong", …}.');
      }
      type = (frame as { type?: unknown } | null)?.type;
      if (type === 'pong') return;
      if (type === 'hello') return this.hello(connection, parseOrThrow(ReaderHello, frame));
      if (type === 'result') return this.result(connection, parseOrThrow(ReaderResult, frame));
      throw invalid('type', 'Invalid type: a reader sends hello (first), result or pong frames.');
    } catch (error) {
      const refusal = error instanceof ApiError ? error : new ApiError(500, 'internal', 'An internal error occurred in the sandbox.');
      this.send(connection, { type: 'error', status: refusal.status, ...refusal.toBody() });
      if (type === 'hello' && connection.readerId === undefined) connection.ws.close(CLOSE_REFUSED, 'hello refused');
    }
  }

  private hello(connection: Connection, hello: ReaderHello): void {
    if (connection.readerId !== undefined) {
      throw new ApiError(409, 'invalid_state', `This connection is already registered as reader ${connection.readerId}.`);
    }
    const { account } = connection;
    const readerId = this.sandbox.store.db.transaction(() => identifyReader(this.sandbox.context(account), hello)).id;
    for (const other of this.connections()) {
      if (other !== connection && other.account.id === account.id && other.readerId === readerId) {
        other.ws.close(CLOSE_REPLACED, `a newer connection of reader ${readerId} replaced this one`);
      }
    }
    connection.readerId = readerId;
    connection.release = this.sandbox.readers.connect(account.id, readerId, {
      send: (action) => this.send(connection, action),
      drop: (reason) => {
        // No longer that reader: its closing fails nothing of a reader that is gone.
        connection.readerId = undefined;
        connection.ws.close(CLOSE_SERVICE_RESTART, reason);
      },
    });
    // Read once online, so the reader is shown online; nothing can interleave before the sends.
    const { reader, pending } = this.sandbox.store.db.transaction(() => {
      const ctx = this.sandbox.context(account);
      const current = getReader(ctx, readerId);
      return { reader: current, pending: pendingAction(ctx, current) };
    });
    this.send(connection, { type: 'registered', reader, heartbeat_ms: this.heartbeatMs });
    if (pending) this.send(connection, pending);
  }

  private result(connection: Connection, result: ReaderResult): void {
    const readerId = connection.readerId;
    if (readerId === undefined) throw new ApiError(409, 'invalid_state', 'Send hello first: this connection is not registered as a reader.');
    const object = this.sandbox.store.db.transaction(() => answerOnReader(this.sandbox.context(connection.account), readerId, result));
    this.send(connection, { type: 'ack', object });
  }
}
