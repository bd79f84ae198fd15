import { InvalidArgumentError } from 'commander';
import { type Event, EventPatternList, type EventWithDeliveries } from '../../../domain/events.js';
import { EventId } from '../../../domain/listen.js';
import { fieldsOf } from '../../command.js';
import type { Column, IO } from '../../io/io.js';

/** `--events a,b.*`: event types of the catalogue, or families of them. */
export function eventTypesArg(value: string): string[] {
  const parsed = EventPatternList.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(parsed.error.issues[0]!.message);
  return parsed.data;
}

/** `--from evt_…` of a stream (listen, tail): an event id, refused before connecting otherwise. */
export function eventIdArg(value: string): string {
  const parsed = EventId.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(parsed.error.issues[0]!.message);
  return parsed.data;
}

/** How events are shown in lists and by `tail`. */
export const eventColumns: Column<Event>[] = [
  { header: 'ID', value: (e) => e.id },
  { header: 'TYPE', value: (e) => e.type },
  { header: 'OBJECT', value: (e) => e.data.object.id },
  { header: 'CREATED', value: (e) => e.created },
];

export const eventFields = fieldsOf<Event>()('id', 'object', 'created', 'livemode', 'type', 'data');

/** An event and, for a person, one line per delivery attempt under each endpoint. */
export function printEvent(io: IO, event: EventWithDeliveries): void {
  if (!io.human) return io.printObject(event);
  const { object, ...related } = event.data;
  io.printObject({ id: event.id, type: event.type, created: event.created, object: `${object.object} ${object.id}`, ...related });
  const deliveries = event.deliveries;
  if (deliveries.length === 0) return io.out(io.color.dim('No webhook endpoint deliveries.'));
  io.out('');
  io.out(io.color.bold('Deliveries'));
  for (const delivery of deliveries) {
    const next = delivery.next_attempt_at ? ` · next attempt ${delivery.next_attempt_at}` : '';
    io.out(`  ${delivery.webhook_endpoint_id}  ${delivery.url}  ${delivery.status}${next}`);
    delivery.attempts.forEach((a, i) => {
      io.out(`    #${i + 1}  ${a.attempted_at}  ${a.status_code ?? a.error ?? 'failed'}  ${a.duration_ms}ms`);
    });
  }
}
