import { z } from 'zod';

/**
 * The service's error body (DESIGN.md section 4). Apart from errors.ts so that the
 * exit-code table, which main.ts loads for every run, does not load zod.
 */
export const ErrorBody = z.object({
  error: z.looseObject({
    type: z.string(),
    code: z.string(),
    message: z.string(),
    param: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
