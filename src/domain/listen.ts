import { z } from 'zod';
import { EventPatternList, type Event } from './events.js';
import { bothIssue } from './errors.js';

// The listen tunnel's protocol, shared by the sandbox's hub (src/sandbox/hub/listen.ts,
// where it is described) and the CLI's tunnel client (src/webhooks/tunnel.ts).

export const EventId = z.string().regex(/^evt_[A-Za-z0-9]+$/, { error: 'must be an event id (evt_…)' });

/** Query of `GET /v1/listen`. */
export const ListenQuery = z
  .strictObject({
    /** Stream the events after this one. */
    after: EventId.optional(),
    /** The log `after` is an event of (the ready frame's `log` on the connection that brought it): an `after` of another log is not looked for in this one. */
    log: z.string().regex(/^log_[A-Za-z0-9]+$/, { error: 'must be an event log id (log_…)' }).optional(),
    /** Stream from this event, itself included. */
    from: EventId.optional(),
    /** Only these types (comma-separated; `family.*` allowed). */
    types: EventPatternList.optional(),
    /** A stable id whose acknowledgements the service keeps, so a reconnect resumes. */
    listener: z.string().regex(/^lsn_[A-Za-z0-9]{8,64}$/, { error: 'must be a listener id (lsn_…)' }).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.after !== undefined && value.from !== undefined) ctx.addIssue(bothIssue(['after', 'from']));
  });
export type ListenQuery = z.infer<typeof ListenQuery>;

/** Server → client. */
export type ServerFrame =
  | {
      type: 'ready';
      listener: string | null;
      /** The cursor streaming starts after (null: the start of the log). */
      after: string | null;
      /** The identity of the log `after` is in: a client keeps it with its cursor and names it as `log` with `after` (absent from older services). */
      log?: string;
      /**
       * Where that cursor came from. `latest` is a first run; `after_gone`: the client's
       * cursor is no longer in the log (a reset), streaming resumes after its position;
       * `unknown_after`: it names no position of this log (another database);
       * `other_log`: the client named another `log` (the sandbox started again with a new
       * database), streaming starts at the start of this one.
       */
      cursor_source: 'after' | 'from' | 'listener' | 'latest' | 'after_gone' | 'unknown_after' | 'other_log';
      /** Events already waiting after the cursor, replayed first. */
      backlog: number;
      /** The server pings this often; a client that hears nothing for much longer reconnects. */
      heartbeat_ms: number;
    }
  /** The log in order, a batch a frame: one frame (and one write) each, not one an event. */
  | { type: 'events'; events: Event[] }
  | { type: 'event'; event: Event; resend: true }
  | { type: 'ping' };

/** Client → server. */
/** An ack names every event settled since the last one: one frame (and one cursor write) a batch, not one an event. */
export type ClientFrame = { type: 'ack'; ids: string[] } | { type: 'pong' };
