import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT } from './common.js';
import { ReaderPresent, TipAmount } from './terminal-readers.js';

describe('a tip is bounded as an amount is', () => {
  const refusal = (amount: number, tip: number) => TipAmount(amount).safeParse(tip).error?.issues[0]?.message;

  it('alone, in every body that carries one (the present helper, a reader\'s result, the CLI\'s flags)', () => {
    expect(ReaderPresent.safeParse({ tip_amount: MAX_AMOUNT + 1 }).error?.issues[0]).toMatchObject({ path: ['tip_amount'], message: `must be at most ${MAX_AMOUNT}` });
    expect(ReaderPresent.safeParse({ tip_amount: MAX_AMOUNT }).success).toBe(true);
  });

  it('with the amount of its payment: amount + tip_amount at most the bound, said with the amount', () => {
    expect(refusal(1000, MAX_AMOUNT - 999)).toBe(`must be at most ${MAX_AMOUNT - 1000}: amount + tip_amount is at most ${MAX_AMOUNT}, and the amount is 1000`);
    expect(refusal(MAX_AMOUNT, 1)).toBe(`must be at most 0: amount + tip_amount is at most ${MAX_AMOUNT}, and the amount is ${MAX_AMOUNT}`);
    expect(refusal(1000, MAX_AMOUNT + 1)).toBe(`must be at most ${MAX_AMOUNT}`);
    expect(refusal(1000, -1)).toBe('must be a non-negative integer amount');
    for (const [amount, tip] of [[1000, MAX_AMOUNT - 1000], [MAX_AMOUNT, 0], [1000, 150]] as const) expect(TipAmount(amount).safeParse(tip).success, `${amount} + ${tip}`).toBe(true);
  });
});
