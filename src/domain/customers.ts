import { z } from 'zod';
import { type BaseObject, LineText, ListQueryOf, Metadata } from './common.js';

const Name = LineText('a name', 100);
// One rule for what is stored and what is looked for: a filter no stored email can match is a typo.
const Email = z.email({ error: 'must be an email address, e.g. jenny@example.com' });

export const CustomerCreate = z.strictObject({
  email: Email.optional(),
  first_name: Name.optional(),
  middle_name: Name.optional(),
  last_name: Name.optional(),
  phone: z
    .string({ error: 'must be a string of digits' })
    .regex(/^\d{4,20}$/, { error: 'must be 4 to 20 digits, with no spaces or symbols' })
    .optional(),
  metadata: Metadata.optional(),
});
export type CustomerCreate = z.infer<typeof CustomerCreate>;

export const CustomerListQuery = ListQueryOf('cus').extend({
  email: Email.optional(),
});

export interface Customer extends BaseObject {
  object: 'customer';
  email: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  phone: string | null;
  metadata: Record<string, string>;
}
