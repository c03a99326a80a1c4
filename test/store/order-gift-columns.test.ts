import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, registerSqlFunctions } from '../../src/store/db.js';
import { milliToNano } from '../../src/domain/purchase-cap.js';
import { getGiftPurchase } from '../../src/store/gift-purchases-repo.js';
import { getOrder } from '../../src/store/orders-repo.js';
import { settleOrder, startService, stopService } from '../helpers.js';
import { migrationFolders } from './migrations-before.js';

/**
 * The migration that gives an order's gift typed columns fills them for the orders made before it, from
 * the gift the order stored as JSON (its id, collection and the listing price as a TON string).
 */
const TAG = '0019_order_gift_columns';
const migrationsBefore = migrationFolders('gift-cols-');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('the order gift columns migration', () => {
  it('fills gift_id, gift_collection and gift_price_milli of existing NFT orders and leaves other orders null', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gift-cols-db-'));
    dirs.push(dir);
    const client = new Database(path.join(dir, 'db.sqlite'));
    registerSqlFunctions(client);
    const db = drizzle(client);
    migrate(db, { migrationsFolder: migrationsBefore(TAG) });
    const insert = client.prepare(
      `insert into orders (seq, order_id, partner_id, type, status, amount, currency, quantity, recipient, account, stage, gift, idempotency_key, created_at, updated_at)
       values (?, ?, 1, ?, 'processing', 1000, ?, 1, 'alice_1', 'alice_1', 'create', ?, ?, 0, 0)`,
    );
    const gift = { gift: 'PlushPepe-42', name: 'Plush Pepe', num: 42, collection: 'plushpepe', image: 'x', price_ton: '1234.567', attributes: {} };
    insert.run(1, 'pa_1', 'nft', 'TON', JSON.stringify(gift), 'k1');
    insert.run(2, 'pa_2', 'nft', 'TON', JSON.stringify({ ...gift, gift: 'Cap-1', collection: 'caps', price_ton: '0.005' }), 'k2');
    insert.run(3, 'PA-3', 'stars', 'USD', null, 'k3');

    migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    const rows = client.prepare('select order_id, gift_id, gift_collection, gift_price_milli from orders order by seq').all();
    expect(rows).toEqual([
      { order_id: 'pa_1', gift_id: 'PlushPepe-42', gift_collection: 'plushpepe', gift_price_milli: 1_234_567 },
      { order_id: 'pa_2', gift_id: 'Cap-1', gift_collection: 'caps', gift_price_milli: 5 },
      { order_id: 'PA-3', gift_id: null, gift_collection: null, gift_price_milli: null },
    ]);
    client.close();
  });
});

describe('an NFT order keeps what it fixed in typed columns', () => {
  it('stores the gift id, collection and listing price, and its purchase is capped by the column, not by the JSON view', async () => {
    const t = await startService({});
    try {
      const p = await t.newPartner({ usd: '10.00', ton: '50000.000' });
      const list = await p.call('GET', '/nft/gifts?collection=SignetRing&limit=5');
      const g = list.body.items[0];
      const r = await p.order('nft', { gift: g.gift, recipient: 'typed_cols', max_price: '1000' });
      expect(r.status).toBe(200);
      expect(r.body.status).toBe('processing');
      const id = r.body.order_id as string;
      const priceMilli = Math.round(Number(g.price_ton) * 1000);
      expect(getOrder(t.db, id)).toMatchObject({ giftId: g.gift, giftCollection: 'SignetRing', giftPriceMilli: priceMilli });
      // the partner's view of the gift is a display copy: changing it changes nothing the purchase relies on
      t.db.$client.prepare("update orders set gift = json_set(gift, '$.price_ton', '99999.000') where order_id = ?").run(id);
      const done = await settleOrder(t, p, id, 5, 40);
      expect(done.status).toBe('completed');
      expect(getGiftPurchase(t.db, id)).toMatchObject({ state: 'paid', capNano: String(milliToNano(priceMilli)), formAmount: String(milliToNano(priceMilli)) });
    } finally {
      await stopService(t);
    }
  });
});
