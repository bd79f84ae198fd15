import { defineCommand } from '../../command.js';
import { listOf } from '../../io/io.js';

export const cards = defineCommand({
  name: 'cards',
  description: 'Show the test cards and the outcome each one gets (any other valid card of an online brand succeeds)',
  examples: ['pay sandbox cards', 'pay sandbox cards --json | jq -r \'.data[] | select(.outcome == "success") | .number\''],
  async run(_, f) {
    const { TEST_CARDS } = await import('../../../domain/test-cards.js');
    if (f.io.json) return f.io.printJSON(listOf(TEST_CARDS));
    await f.io.printTable(['NUMBER', 'BRAND', 'OUTCOME'], TEST_CARDS.map((c) => [c.number, c.brand, c.description]));
    if (f.io.human) f.io.info('Use any future expiry (e.g. 12/34), a 3-digit CVC (4 for amex) and any ZIP.');
  },
});
