import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

// Standard Webhooks signing (DESIGN section 6), one place for the sandbox's deliveries
// and the CLI's `listen`: the receiver verifies both the same way.

/** `whsec_` + base64 of 24 random bytes: the form standardwebhooks' verifier decodes. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * Headers of one delivery attempt. The timestamp is the real time of the attempt (the
 * receiver rejects one more than five minutes off), so each retry is signed afresh.
 */
export function signedHeaders(secret: string, eventId: string, payload: string, at = new Date()): Record<string, string> {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signerOf(secret).sign(eventId, at, payload),
  };
}

/** The last secret's signer: `listen` signs every event with one secret, and decoding it each time showed in its profile. */
let last: { secret: string; webhook: Webhook } | undefined;
function signerOf(secret: string): Webhook {
  if (last?.secret !== secret) last = { secret, webhook: new Webhook(secret) };
  return last.webhook;
}
