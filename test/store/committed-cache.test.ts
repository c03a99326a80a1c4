import { describe, expect, it } from 'vitest';
import { tempDatabases } from './temp-db.js';
import { inTx } from '../../src/store/db.js';
import { balancesOf, cachedBalancesOf, postEntry } from '../../src/store/ledger-repo.js';
import { deleteBalanceAlert, getBalanceAlert, putBalanceAlert, setAlerted } from '../../src/store/balance-alerts-repo.js';
import { getOrder, insertOrder, nextOrderSeq, type NewOrder } from '../../src/store/orders-repo.js';
import { getPartner, insertPartner, setPartnerStatus, setWebhook } from '../../src/store/partners-repo.js';

/**
 * The committed-value caches on a real SQLite file: a value is kept only when read outside a transaction,
 * every write through the repositories drops it, and nothing of a rolled-back transaction is ever kept.
 */
const open = tempDatabases('committed-cache-');

describe('committed-value caches', () => {
  it('keep a row read outside a transaction until a repository write drops it', () => {
    const db = open();
    const p = insertPartner(db, 'cached', 1);
    expect(getPartner(db, p.partnerId)?.webhookUrl).toBeNull();
    // a change behind the repository's back is not seen: the row is served from memory
    db.$client.prepare("update partners set webhook_url = 'https://behind.example/h' where partner_id = ?").run(p.partnerId);
    expect(getPartner(db, p.partnerId)?.webhookUrl).toBeNull();
    // a change through the repository is seen at once
    setWebhook(db, p.partnerId, 'https://front.example/h', null);
    expect(getPartner(db, p.partnerId)?.webhookUrl).toBe('https://front.example/h');
    expect(Object.isFrozen(getPartner(db, p.partnerId))).toBe(true);
  });

  it('never keep what a transaction that rolls back wrote or read', () => {
    const db = open();
    const p = insertPartner(db, 'rollback', 1);
    expect(getPartner(db, p.partnerId)?.status).toBe('inactive');
    expect(() =>
      inTx(db, (tx) => {
        setPartnerStatus(tx, p.partnerId, 'active');
        // inside the transaction the change is visible, read from the database
        expect(getPartner(tx, p.partnerId)?.status).toBe('active');
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(getPartner(db, p.partnerId)?.status).toBe('inactive');
  });

  it('show balances from memory between entries and the new balance after each entry', () => {
    const db = open();
    const p = insertPartner(db, 'balances', 1);
    expect(cachedBalancesOf(db, p.partnerId)).toEqual({ USD: 0, TON: 0 });
    inTx(db, (tx) => postEntry(tx, { partnerId: p.partnerId, currency: 'USD', kind: 'adjustment', amount: 1000, note: 'opening balance', now: 2 }));
    expect(cachedBalancesOf(db, p.partnerId)).toEqual({ USD: 1000, TON: 0 });
    expect(() =>
      inTx(db, (tx) => {
        postEntry(tx, { partnerId: p.partnerId, currency: 'USD', kind: 'order_debit', amount: -400, orderId: 'PA-1', now: 3 });
        expect(cachedBalancesOf(tx, p.partnerId)).toEqual({ USD: 600, TON: 0 });
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(cachedBalancesOf(db, p.partnerId)).toEqual({ USD: 1000, TON: 0 });
    expect(balancesOf(db, p.partnerId)).toEqual({ USD: 1000, TON: 0 });
  });

  /** A partner with money for the orders below (an order is written only after its debit: the database refuses it otherwise). */
  function fundedPartner(db: ReturnType<typeof open>, name: string) {
    const p = insertPartner(db, name, 1);
    inTx(db, (tx) => postEntry(tx, { partnerId: p.partnerId, currency: 'USD', kind: 'adjustment', amount: 100_000, note: 'test funds', now: 1 }));
    return p;
  }

  /** The order's debit, then the order (what order creation does in its transaction). */
  function insertDebitedOrder(tx: Parameters<typeof insertOrder>[0], o: NewOrder) {
    postEntry(tx, { partnerId: o.partnerId, currency: o.currency, kind: 'order_debit', amount: -o.amount, orderId: o.orderId, now: o.createdAt });
    return insertOrder(tx, o);
  }

  function newOrder(partnerId: number, seq: number, extra: Partial<NewOrder> = {}): NewOrder {
    return {
      seq,
      orderId: `PA-${100000 + seq}`,
      partnerId,
      type: 'stars',
      status: 'processing',
      amount: 150,
      currency: 'USD',
      priceUsdRef: 150,
      supplierCost: 120,
      quantity: 100,
      recipient: '@someone',
      account: 'someone',
      refunded: false,
      stage: 'deliver',
      gift: null,
      idempotencyKey: `k-${seq}`,
      clientReference: null,
      createdAt: 1000 + seq,
      updatedAt: 1000 + seq,
      ...extra,
    };
  }

  it('keep the next order number from the orders inserted, and nothing of a transaction that rolls back', () => {
    const db = open();
    const p = fundedPartner(db, 'orders');
    inTx(db, (tx) => insertDebitedOrder(tx, newOrder(p.partnerId, nextOrderSeq(tx))));
    expect(getOrder(db, 'PA-100001')?.seq).toBe(1);
    // a transaction that rolls back leaves nothing in memory, and its number is not used up
    expect(() =>
      inTx(db, (tx) => {
        insertDebitedOrder(tx, newOrder(p.partnerId, nextOrderSeq(tx)));
        expect(nextOrderSeq(tx)).toBe(3);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(getOrder(db, 'PA-100002')).toBeUndefined();
    expect(inTx(db, (tx) => nextOrderSeq(tx))).toBe(2);
    // kept in memory: an order written behind the repository's back does not move it
    inTx(db, (tx) => postEntry(tx, { partnerId: p.partnerId, currency: 'USD', kind: 'order_debit', amount: -1, orderId: 'PA-100007', now: 1 }));
    db.$client.exec(`insert into orders (seq, order_id, partner_id, type, status, amount, currency, quantity, recipient, account, stage, idempotency_key, created_at, updated_at)
      values (7, 'PA-100007', ${p.partnerId}, 'stars', 'processing', 1, 'USD', 50, '@x', 'x', 'deliver', 'behind', 1, 1)`);
    expect(inTx(db, (tx) => nextOrderSeq(tx))).toBe(2);
  });

  it('keep a low-balance threshold read in a debit transaction once it commits, until a repository write drops it', () => {
    const db = open();
    const p = insertPartner(db, 'alerts', 1);
    inTx(db, (tx) => putBalanceAlert(tx, p.partnerId, 'USD', 500, 1));
    // read in a transaction that rolls back: not kept
    expect(() =>
      inTx(db, (tx) => {
        expect(getBalanceAlert(tx, p.partnerId, 'USD')?.threshold).toBe(500);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    db.$client.prepare('update balance_alerts set threshold = 600 where partner_id = ?').run(p.partnerId);
    expect(inTx(db, (tx) => getBalanceAlert(tx, p.partnerId, 'USD'))?.threshold).toBe(600);
    // read in a transaction that commits: kept (a change behind the repository's back is not seen)
    db.$client.prepare('update balance_alerts set threshold = 700 where partner_id = ?').run(p.partnerId);
    expect(inTx(db, (tx) => getBalanceAlert(tx, p.partnerId, 'USD'))?.threshold).toBe(600);
    // no threshold is kept as such too
    expect(getBalanceAlert(db, p.partnerId, 'TON')).toBeUndefined();
    db.$client.prepare("insert into balance_alerts values (?, 'TON', 5, 0, 1)").run(p.partnerId);
    expect(getBalanceAlert(db, p.partnerId, 'TON')).toBeUndefined();
    // every repository write is seen at once, inside its transaction and after it
    inTx(db, (tx) => {
      setAlerted(tx, p.partnerId, 'USD', true, 2);
      expect(getBalanceAlert(tx, p.partnerId, 'USD')).toMatchObject({ threshold: 700, alerted: true });
    });
    expect(getBalanceAlert(db, p.partnerId, 'USD')).toMatchObject({ threshold: 700, alerted: true });
    expect(() =>
      inTx(db, (tx) => {
        putBalanceAlert(tx, p.partnerId, 'USD', 100, 3);
        expect(getBalanceAlert(tx, p.partnerId, 'USD')).toMatchObject({ threshold: 100, alerted: false });
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(getBalanceAlert(db, p.partnerId, 'USD')).toMatchObject({ threshold: 700, alerted: true });
    inTx(db, (tx) => deleteBalanceAlert(tx, p.partnerId, 'USD'));
    expect(getBalanceAlert(db, p.partnerId, 'USD')).toBeUndefined();
  });

  it('forget what a transaction staged when one of its savepoints rolls back, so the next number is read again', () => {
    const db = open();
    const p = fundedPartner(db, 'numbers');
    inTx(db, (tx) => insertDebitedOrder(tx, newOrder(p.partnerId, nextOrderSeq(tx))));
    const seqs: number[] = [];
    inTx(db, (tx) => {
      seqs.push(insertDebitedOrder(tx, newOrder(p.partnerId, nextOrderSeq(tx))).seq);
      // a refused unit of a group commit: its savepoint rolls back, the transaction goes on
      expect(() =>
        inTx(db, (inner) => {
          insertDebitedOrder(inner, newOrder(p.partnerId, nextOrderSeq(inner)));
          throw new Error('refused');
        }),
      ).toThrow('refused');
      seqs.push(insertDebitedOrder(tx, newOrder(p.partnerId, nextOrderSeq(tx))).seq);
    });
    // no number used twice (the insert would have failed) and none skipped by the refused one
    expect(seqs).toEqual([2, 3]);
    expect(getOrder(db, 'PA-100003')?.seq).toBe(3);
    expect(getOrder(db, 'PA-100004')).toBeUndefined();
    expect(inTx(db, (tx) => nextOrderSeq(tx))).toBe(4);
  });
});

