import type { ActivationCode } from '../../../domain/terminal-readers.js';
import { defineCommand, fieldsOf } from '../../command.js';

export const activationCode = defineCommand({
  name: 'activation-code',
  description: 'Get an activation code for a self-owned processor A developer reader (what support hands out)',
  examples: ['pay readers activation-code', 'pay readers activation-code --json | jq -r .code'],
  fields: fieldsOf<ActivationCode>()('id', 'object', 'created', 'livemode', 'code', 'expires_at', 'used_by'),
  async run(_, f) {
    const client = await f.client();
    const code = await client.call<ActivationCode>('terminal_readers.activation_code');
    if (f.io.human) f.io.success(`Activation code ${code.code}, valid until ${code.expires_at}. Enter it on the reader, or: pay readers activate --activation-code ${code.code} --serial …`);
    f.io.printObject(code);
  },
});
