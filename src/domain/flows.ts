import { z } from 'zod';

/**
 * A flow file (`pay trigger --file flow.json`): named steps run in order, each an API
 * request, a clock advance, a card presented on a reader or a checkout page paid. A
 * string may refer to an earlier step's result, `${customer.id}` (a string that is only
 * a reference keeps the value's type), or to the test clock: `${clock.now}`,
 * `${clock.today}`, `${clock.tomorrow}`.
 */

/** `${step.field.path}`; the path may index arrays (`${list.data.0.id}`). */
export const REFERENCE = /\$\{([A-Za-z][\w-]*)((?:\.[\w-]+)*)\}/g;
/** The pseudo-step of the test clock, read when a step refers to it. */
export const CLOCK_REFERENCE = 'clock';
export const CLOCK_FIELDS = ['now', 'today', 'tomorrow'] as const;

const StepName = z
  .string({ error: 'must be a string' })
  .regex(/^[A-Za-z][\w-]*$/, { error: 'must be letters, digits, _ or -, starting with a letter' })
  .refine((name) => name !== CLOCK_REFERENCE, { error: `'${CLOCK_REFERENCE}' is reserved for the test clock's references` });

const Fields = z.record(z.string(), z.unknown(), { error: 'must be an object of fields' });

const Request = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE'], { error: 'must be GET, POST, PUT or DELETE' }),
  path: z.string({ error: 'must be a path' }).regex(/^\/v1\/[^?#\s]*$/, { error: 'must be a path under /v1/ without a query string, e.g. /v1/customers (put the query in "query")' }),
  body: Fields.optional(),
  query: Fields.optional(),
});

const ClockAdvance = z.strictObject({
  to: z.string({ error: 'must be a date (YYYY-MM-DD), a date-time or a reference' }).optional(),
  days: z.union([z.number().int().min(1), z.string()], { error: 'must be a whole number of days or a reference' }).optional(),
});

/** The reader and what the customer does (the present helper's fields). */
const Present = z.looseObject({ reader: z.string({ error: 'must be a reader id (tmr_…) or a reference' }) });

export const PayCheckout = z.strictObject({
  session: z.string({ error: 'must be a checkout session id (cs_…) or a reference' }),
  /** The hosted page's form; a card that succeeds when omitted. */
  card: z
    .strictObject({ number: z.string(), exp: z.string(), cvc: z.string(), zip: z.string() }, { error: 'must be {number, exp, cvc, zip}, all strings' })
    .partial()
    .optional(),
});

export const STEP_KINDS = ['request', 'advance_clock', 'present', 'pay_checkout'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export const FlowStep = z
  .strictObject({
    name: StepName,
    request: Request.optional(),
    /** With `declined`, a decline is the expected outcome: a request's 402 (its payment intent is the step's result), or a present step's card. */
    expect: z.literal('declined', { error: 'must be "declined"' }).optional(),
    advance_clock: ClockAdvance.optional(),
    present: Present.optional(),
    pay_checkout: PayCheckout.optional(),
  })
  .superRefine((step, ctx) => {
    const kinds = STEP_KINDS.filter((kind) => step[kind] !== undefined);
    if (kinds.length !== 1) {
      ctx.addIssue({ code: 'custom', path: [], message: `must have exactly one of ${STEP_KINDS.join(', ')}${kinds.length > 1 ? ` (has ${kinds.join(' and ')})` : ''}` });
    }
    if (step.expect !== undefined && step.request === undefined && step.present === undefined) ctx.addIssue({ code: 'custom', path: ['expect'], message: 'applies only to a request or present step' });
    if (step.advance_clock && (step.advance_clock.to === undefined) === (step.advance_clock.days === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['advance_clock'], message: 'give exactly one of to or days' });
    }
  });
export type FlowStep = z.output<typeof FlowStep>;

export const FlowFile = z
  .strictObject({
    name: z.string({ error: 'must be a string' }).optional(),
    description: z.string({ error: 'must be a string' }).optional(),
    /** The events it causes, for --list; a run that causes others (an override changed the outcome) is warned. */
    events: z.array(z.string(), { error: 'must be a list of event types' }).optional(),
    /** The step a bare `--override field=value` sets; the last step by default. */
    primary: z.string({ error: 'must be a step name' }).optional(),
    steps: z.array(FlowStep, { error: 'must be a list of steps' }).min(1, { error: 'must have at least one step' }),
  })
  .superRefine((flow, ctx) => {
    const seen = new Set<string>();
    flow.steps.forEach((step, index) => {
      if (seen.has(step.name)) ctx.addIssue({ code: 'custom', path: ['steps', index, 'name'], message: `'${step.name}' is the name of an earlier step: names must be unique` });
      for (const { at, name, field } of references(step)) {
        if (name === CLOCK_REFERENCE) {
          if (!(CLOCK_FIELDS as readonly string[]).includes(field)) {
            ctx.addIssue({ code: 'custom', path: ['steps', index, ...at], message: `\${clock.${field}} is not a field of the clock: use ${CLOCK_FIELDS.map((f) => `\${clock.${f}}`).join(', ')}` });
          }
        } else if (!seen.has(name)) {
          const earlier = [...seen].join(', ') || 'none';
          ctx.addIssue({ code: 'custom', path: ['steps', index, ...at], message: `\${${name}${field ? `.${field}` : ''}} refers to no earlier step '${name}' (earlier steps: ${earlier})` });
        }
      }
      seen.add(step.name);
    });
    if (flow.primary !== undefined && !seen.has(flow.primary)) {
      ctx.addIssue({ code: 'custom', path: ['primary'], message: `names no step (steps: ${[...seen].join(', ')})` });
    }
  });
export type FlowFile = z.output<typeof FlowFile>;

/** Every reference in a value, with where it sits. */
export function references(value: unknown, at: Array<string | number> = []): Array<{ at: Array<string | number>; name: string; field: string }> {
  if (typeof value === 'string') return [...value.matchAll(REFERENCE)].map((m) => ({ at, name: m[1]!, field: m[2]!.slice(1) }));
  if (Array.isArray(value)) return value.flatMap((item, i) => references(item, [...at, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => references(item, [...at, key]));
  return [];
}

/** The step a bare override sets. */
export const primaryStep = (flow: FlowFile) => flow.primary ?? flow.steps.at(-1)!.name;
