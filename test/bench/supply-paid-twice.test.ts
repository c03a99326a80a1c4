import { Cell, loadMessage } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { HotWallet } from '../../src/suppliers/fragment/wallet.js';
import { FRAGMENT_ADDRESS, fragmentPayload, newMnemonic, paidPerRecipient, paidTxOf, startFakeToncenter } from '../fragment/fakes.js';

/**
 * The "paid twice" of `npm run bench:supply` (and of the Fragment crash tests) must be able to say more than
 * 0: transfers signed by the real V5R1 wallet and executed by its contract in @ton/sandbox, two of whose
 * messages pay two requests Fragment opened for the same recipient.
 */
describe('bench:supply: paid twice', () => {
  it('counts per recipient the messages of successful wallet transactions, matched by Ref#; a transfer the wallet refused pays nothing', async () => {
    const nowSec = () => Math.floor(Date.now() / 1000);
    const ton = await startFakeToncenter(nowSec);
    try {
      const wallet = await HotWallet.fromMnemonic(await newMnemonic(), 'v5r1');
      await ton.fund(wallet.address, '10');
      const fragment = {
        requests: new Map(
          [
            ['r1', 'RfA1', 'rcp_alice'],
            ['r2', 'RfB2', 'rcp_alice'],
            ['r3', 'RfC3', 'rcp_bob'],
          ].map(([id, ref, recipient]) => [id, { product: 'stars', amountNano: 1_000_000n, quantity: '50', ref, recipient }]),
        ),
      };
      const pay = (ref: string) => ({ address: FRAGMENT_ADDRESS.toString(), amount: '1000000', payload: fragmentPayload(`50 Telegram Stars \n\nRef#${ref}`) });
      const run = (boc: string) => ton.execute(loadMessage(Cell.fromBase64(boc).beginParse()));
      const first = wallet.sign([pay('RfA1'), pay('RfC3')], 0, nowSec() + 60, false);
      expect(await run(first.boc)).not.toBeNull();
      expect(paidPerRecipient(fragment, [...ton.executed.values()].map(paidTxOf))).toEqual(new Map([['rcp_alice', 1], ['rcp_bob', 1]]));
      // the same seqno again: the contract refuses it, nothing is counted
      expect(await run(wallet.sign([pay('RfB2')], 0, nowSec() + 60, true).boc)).toBeNull();
      expect(paidPerRecipient(fragment, [...ton.executed.values()].map(paidTxOf)).get('rcp_alice')).toBe(1);
      // alice's second request paid at the next seqno, with a message naming no request of Fragment's
      const second = wallet.sign([pay('RfB2'), { ...pay('x'), payload: fragmentPayload('no reference') }], 1, nowSec() + 60, true);
      expect(await run(second.boc)).not.toBeNull();
      const paid = paidPerRecipient(fragment, [...ton.executed.values()].map(paidTxOf));
      expect(paid).toEqual(new Map([['rcp_alice', 2], ['rcp_bob', 1], ['?', 1]]));
      expect([...paid.values()].filter((x) => x > 1)).toHaveLength(1);
      // a failed transaction's messages never left
      expect(paidPerRecipient(fragment, [{ success: false, comments: ['50 Telegram Stars \n\nRef#RfC3'] }])).toEqual(new Map());
    } finally {
      await ton.close();
    }
  });
});
