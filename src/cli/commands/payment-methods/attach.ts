import { type PaymentMethod, PaymentMethodAttach } from '../../../domain/payment-methods.js';
import { arg, bodyFrom, defineCommand, flag } from '../../command.js';
import { paymentMethodFields } from './view.js';

/** Shared with create --customer: one flag, checked by one schema. */
export const flags = { customer: flag.string('--customer <cus_id>', 'Customer to attach it to', { field: 'customer_id', prompted: true }) };

export const attach = defineCommand({
  name: 'attach',
  description: 'Attach a payment method to a customer (emits payment_method.attached)',
  args: { id: arg.id('payment_method', 'Payment method id (pm_…)') },
  flags,
  examples: ['pay payment-methods attach pm_123 --customer cus_123'],
  fields: paymentMethodFields,
  async run(options, f) {
    const customer = options.customer ?? (await f.io.ask('--customer', 'Customer id (cus_…)'));
    const body = bodyFrom(PaymentMethodAttach, flags, { customer });
    const client = await f.client();
    const pm = await client.call<PaymentMethod>('payment_methods.attach', { params: { id: options.id }, body });
    if (f.io.human) f.io.success(`Attached ${pm.id} to ${pm.customer_id}`);
    f.io.printObject(pm);
  },
});
