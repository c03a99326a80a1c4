-- Money guards: what the database itself refuses (src/store/schema/ledger.ts lists them), and one canonical
-- form of a chain transaction hash per network (src/domain/tx-hash.ts).
--
-- A database that already holds a second debit or refund of one order cannot take the unique index: the
-- upgrade stops here with a message naming the count and the first such order, and the whole migration
-- rolls back (nothing of it is written). Such an order is already reported by GET /ledger/check.
CREATE TEMP TABLE `_migration_refusal` (`message` text NOT NULL);--> statement-breakpoint
CREATE TEMP TRIGGER `_migration_refusal_raise` BEFORE INSERT ON `_migration_refusal` BEGIN SELECT RAISE(ABORT, new.`message`); END;--> statement-breakpoint
INSERT INTO `_migration_refusal` (`message`)
SELECT 'Upgrade stopped, nothing changed: the ledger holds ' || count(*) || ' second debit(s) or refund(s) of one order (first: order ' || min(`order_id`) || '). See docs/operations.md, "Upgrading a ledger that breaks the money guards".'
FROM (SELECT `order_id` FROM `ledger_entries` WHERE `kind` IN ('order_debit', 'order_refund') AND `order_id` IS NOT NULL GROUP BY `order_id`, `kind` HAVING count(*) > 1)
HAVING count(*) > 0;--> statement-breakpoint
DROP TRIGGER temp.`_migration_refusal_raise`;--> statement-breakpoint
DROP TABLE temp.`_migration_refusal`;--> statement-breakpoint
-- ledger_entries rebuilt with its row rules (CHECK constraints) and the note of an adjustment
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_ledger_entries` (
	`entry_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`partner_id` integer NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	`kind` text NOT NULL,
	`order_id` text,
	`topup_id` text,
	`balance_after` integer NOT NULL,
	`created_at` integer NOT NULL,
	`note` text,
	CONSTRAINT "balance_after_not_negative" CHECK("__new_ledger_entries"."balance_after" >= 0),
	CONSTRAINT "ledger_currency" CHECK("__new_ledger_entries"."currency" in ('USD', 'TON')),
	CONSTRAINT "ledger_entry_shape" CHECK(case "__new_ledger_entries"."kind"
        when 'order_debit' then "__new_ledger_entries"."amount" <= 0 and "__new_ledger_entries"."order_id" is not null and "__new_ledger_entries"."topup_id" is null and "__new_ledger_entries"."note" is null
        when 'order_refund' then "__new_ledger_entries"."amount" >= 0 and "__new_ledger_entries"."order_id" is not null and "__new_ledger_entries"."topup_id" is null and "__new_ledger_entries"."note" is null
        when 'topup' then "__new_ledger_entries"."amount" > 0 and "__new_ledger_entries"."topup_id" is not null and "__new_ledger_entries"."order_id" is null and "__new_ledger_entries"."note" is null
        when 'adjustment' then "__new_ledger_entries"."amount" <> 0 and "__new_ledger_entries"."order_id" is null and "__new_ledger_entries"."topup_id" is null and "__new_ledger_entries"."note" is not null and length(trim("__new_ledger_entries"."note")) > 0
        else 0 end)
);
--> statement-breakpoint
INSERT INTO `__new_ledger_entries`("entry_id", "partner_id", "currency", "amount", "kind", "order_id", "topup_id", "balance_after", "created_at") SELECT "entry_id", "partner_id", "currency", "amount", "kind", "order_id", "topup_id", "balance_after", "created_at" FROM `ledger_entries`;--> statement-breakpoint
DROP TABLE `ledger_entries`;--> statement-breakpoint
ALTER TABLE `__new_ledger_entries` RENAME TO `ledger_entries`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `ledger_partner` ON `ledger_entries` (`partner_id`,`currency`,`entry_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_order_kind` ON `ledger_entries` (`order_id`,`kind`) WHERE "ledger_entries"."order_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_topup` ON `ledger_entries` (`topup_id`) WHERE "ledger_entries"."topup_id" is not null;--> statement-breakpoint
-- Top-ups and deposits: the hash in its network's canonical form (src/domain/tx-hash.ts canonicalTxHash;
-- written out here in SQL so that the migration needs nothing of the service's code, and checked against
-- canonicalTxHash on every spelling by test/store/money-guards.test.ts), top-ups without the `network:`
-- prefix the deposit path used to store (the network has its own column). Two spellings of one transaction
-- credited twice before this upgrade (support's bare hash beside the watcher's) become one hash: both
-- credits stay as they were (no balance is changed behind the operators' backs), the later one's hash is
-- marked `#duplicate-of-<first top-up>` so the unique index holds, and each is written to the audit log as
-- `topup.duplicate_found` for support to correct with an adjustment (docs/operations.md). Deposits alike.
DROP INDEX `topups_tx_hash`;--> statement-breakpoint
DROP INDEX `deposits_network_tx`;--> statement-breakpoint
CREATE TEMP TABLE `_hash_parts` AS
  SELECT `tbl`, `id`, `network`, `h`,
    CASE WHEN instr(`h`, ':') > 0 THEN substr(`h`, 1, instr(`h`, ':') - 1) ELSE `h` END AS `base`,
    CASE WHEN instr(`h`, ':') > 0 THEN substr(`h`, instr(`h`, ':')) ELSE '' END AS `suffix`
  FROM (
    SELECT 'topups' AS `tbl`, `topup_id` AS `id`, `network`,
      trim(CASE WHEN substr(`tx_hash`, 1, length(`network`) + 1) = `network` || ':' THEN substr(`tx_hash`, length(`network`) + 2) ELSE `tx_hash` END) AS `h`
    FROM `topups`
    UNION ALL
    SELECT 'deposits', `deposit_id`, `network`, trim(`tx_hash`) FROM `deposits`
  );--> statement-breakpoint
CREATE TEMP TABLE `_hash_canon` AS
  WITH RECURSIVE `b64`(`tbl`, `id`, `s`, `i`, `out`) AS (
    SELECT `tbl`, `id`, replace(replace(`base`, '-', '+'), '_', '/'), 0, '' FROM temp.`_hash_parts`
    WHERE `network` = 'ton' AND (length(`base`) = 43 OR (length(`base`) = 44 AND substr(`base`, 44) = '='))
      AND substr(`base`, 1, 43) NOT GLOB '*[^A-Za-z0-9+/_-]*'
    UNION ALL
    SELECT `tbl`, `id`, `s`, `i` + 1, `out` || printf('%06x',
        (max(instr('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', substr(`s`, 4 * `i` + 1, 1)) - 1, 0) << 18)
      | (max(instr('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', substr(`s`, 4 * `i` + 2, 1)) - 1, 0) << 12)
      | (max(instr('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', substr(`s`, 4 * `i` + 3, 1)) - 1, 0) << 6)
      | max(instr('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', substr(`s`, 4 * `i` + 4, 1)) - 1, 0))
    FROM `b64` WHERE `i` < 11
  )
  SELECT p.`tbl`, p.`id`,
    CASE
      WHEN p.`suffix` <> '' AND (length(p.`suffix`) > 10 OR length(p.`suffix`) < 2 OR substr(p.`suffix`, 2) GLOB '*[^0-9]*') THEN p.`h`
      WHEN length(p.`base`) = 64 AND p.`base` NOT GLOB '*[^0-9A-Fa-f]*'
        THEN CASE p.`network` WHEN 'bep20' THEN '0x' ELSE '' END || lower(p.`base`) || p.`suffix`
      WHEN length(p.`base`) = 66 AND lower(substr(p.`base`, 1, 2)) = '0x' AND substr(p.`base`, 3) NOT GLOB '*[^0-9A-Fa-f]*'
        THEN CASE p.`network` WHEN 'bep20' THEN '0x' ELSE '' END || lower(substr(p.`base`, 3)) || p.`suffix`
      WHEN d.`out` IS NOT NULL THEN substr(d.`out`, 1, 64) || p.`suffix`
      ELSE p.`h`
    END AS `canon`
  FROM temp.`_hash_parts` p LEFT JOIN `b64` d ON d.`tbl` = p.`tbl` AND d.`id` = p.`id` AND d.`i` = 11;--> statement-breakpoint
UPDATE `topups` SET `tx_hash` = c.`canon` FROM temp.`_hash_canon` c WHERE c.`tbl` = 'topups' AND c.`id` = `topups`.`topup_id`;--> statement-breakpoint
UPDATE `deposits` SET `tx_hash` = c.`canon` FROM temp.`_hash_canon` c WHERE c.`tbl` = 'deposits' AND c.`id` = `deposits`.`deposit_id`;--> statement-breakpoint
DROP TABLE temp.`_hash_canon`;--> statement-breakpoint
DROP TABLE temp.`_hash_parts`;--> statement-breakpoint
CREATE TEMP TABLE `_topup_firsts` AS
  SELECT `topup_id`, first_value(`topup_id`) OVER (PARTITION BY `network`, `tx_hash` ORDER BY `created_at`, `rowid`) AS `first_id` FROM `topups`;--> statement-breakpoint
INSERT INTO `audit_log` (`actor`, `action`, `target`, `data`, `created_at`)
SELECT 'migration', 'topup.duplicate_found', CAST(d.`partner_id` AS TEXT),
  json_object('topup_id', d.`topup_id`, 'network', d.`network`, 'tx_hash', d.`tx_hash`, 'currency', d.`currency`, 'amount', d.`amount`,
    'first_topup_id', f.`topup_id`, 'first_partner_id', f.`partner_id`, 'first_amount', f.`amount`),
  CAST(unixepoch('subsec') * 1000 AS INTEGER)
FROM temp.`_topup_firsts` r JOIN `topups` d ON d.`topup_id` = r.`topup_id` JOIN `topups` f ON f.`topup_id` = r.`first_id`
WHERE r.`first_id` <> r.`topup_id`;--> statement-breakpoint
UPDATE `topups` SET `tx_hash` = `topups`.`tx_hash` || '#duplicate-of-' || r.`first_id`
FROM temp.`_topup_firsts` r WHERE r.`topup_id` = `topups`.`topup_id` AND r.`first_id` <> r.`topup_id`;--> statement-breakpoint
DROP TABLE temp.`_topup_firsts`;--> statement-breakpoint
CREATE UNIQUE INDEX `topups_network_tx` ON `topups` (`network`,`tx_hash`);--> statement-breakpoint
-- Deposits: a second report of one transaction in another spelling (the sandbox stored the text as
-- typed) is kept, marked the same way and audited as `deposit.duplicate_found`.
CREATE TEMP TABLE `_deposit_firsts` AS
  SELECT `deposit_id`, first_value(`deposit_id`) OVER (PARTITION BY `network`, `tx_hash` ORDER BY `created_at`, `rowid`) AS `first_id` FROM `deposits`;--> statement-breakpoint
INSERT INTO `audit_log` (`actor`, `action`, `target`, `data`, `created_at`)
SELECT 'migration', 'deposit.duplicate_found', d.`deposit_id`,
  json_object('network', d.`network`, 'tx_hash', d.`tx_hash`, 'status', d.`status`, 'topup_id', d.`topup_id`, 'first_deposit_id', r.`first_id`),
  CAST(unixepoch('subsec') * 1000 AS INTEGER)
FROM temp.`_deposit_firsts` r JOIN `deposits` d ON d.`deposit_id` = r.`deposit_id`
WHERE r.`first_id` <> r.`deposit_id`;--> statement-breakpoint
UPDATE `deposits` SET `tx_hash` = `deposits`.`tx_hash` || '#duplicate-of-' || r.`first_id`
FROM temp.`_deposit_firsts` r WHERE r.`deposit_id` = `deposits`.`deposit_id` AND r.`first_id` <> r.`deposit_id`;--> statement-breakpoint
DROP TABLE temp.`_deposit_firsts`;--> statement-breakpoint
CREATE UNIQUE INDEX `deposits_network_tx` ON `deposits` (`network`,`tx_hash`);--> statement-breakpoint
-- The rules across rows. Each refusal is RAISE(ABORT): the statement fails, the caller's transaction rolls
-- back, and the message names the rule.
-- 1. An entry continues its partner's and currency's chain: balance_after = previous balance_after + amount.
CREATE TRIGGER `ledger_entries_chain` BEFORE INSERT ON `ledger_entries`
WHEN new.`balance_after` IS NOT coalesce((SELECT e.`balance_after` FROM `ledger_entries` e
  WHERE e.`partner_id` = new.`partner_id` AND e.`currency` = new.`currency` ORDER BY e.`entry_id` DESC LIMIT 1), 0) + new.`amount`
BEGIN
  SELECT RAISE(ABORT, 'ledger_chain: balance_after must be the previous balance_after plus amount');
END;--> statement-breakpoint
-- 2. A refund returns its order's debit (same partner, currency and amount); the unique index allows one.
CREATE TRIGGER `ledger_refund_matches_debit` BEFORE INSERT ON `ledger_entries`
WHEN new.`kind` = 'order_refund' AND NOT EXISTS (SELECT 1 FROM `ledger_entries` d WHERE d.`order_id` = new.`order_id` AND d.`kind` = 'order_debit'
  AND d.`partner_id` = new.`partner_id` AND d.`currency` = new.`currency` AND d.`amount` = -new.`amount`)
BEGIN
  SELECT RAISE(ABORT, 'ledger_refund: a refund must return its order''s debit');
END;--> statement-breakpoint
-- 3. A credit is the top-up row it names (partner, currency, amount); the unique index allows one.
CREATE TRIGGER `ledger_credit_matches_topup` BEFORE INSERT ON `ledger_entries`
WHEN new.`kind` = 'topup' AND NOT EXISTS (SELECT 1 FROM `topups` t WHERE t.`topup_id` = new.`topup_id`
  AND t.`partner_id` = new.`partner_id` AND t.`currency` = new.`currency` AND t.`amount` = new.`amount`)
BEGIN
  SELECT RAISE(ABORT, 'ledger_topup: a credit must match its top-up');
END;--> statement-breakpoint
-- 4. The entry moves the balance: the service never writes accounts.balance itself.
CREATE TRIGGER `ledger_entries_move_balance` AFTER INSERT ON `ledger_entries`
BEGIN
  UPDATE `accounts` SET `balance` = new.`balance_after` WHERE `partner_id` = new.`partner_id` AND `currency` = new.`currency`;
  SELECT RAISE(ABORT, 'ledger_account: no account for this partner and currency') WHERE changes() = 0;
END;--> statement-breakpoint
-- 5. Entries are history: never changed, never removed (a mistake is corrected by an adjustment entry).
CREATE TRIGGER `ledger_entries_no_update` BEFORE UPDATE ON `ledger_entries`
BEGIN
  SELECT RAISE(ABORT, 'ledger_append_only: ledger entries are never changed; post an adjustment');
END;--> statement-breakpoint
CREATE TRIGGER `ledger_entries_no_delete` BEFORE DELETE ON `ledger_entries`
BEGIN
  SELECT RAISE(ABORT, 'ledger_append_only: ledger entries are never deleted; post an adjustment');
END;--> statement-breakpoint
-- 6. A balance always equals its last entry's balance_after (0 without entries); an account with entries stays.
CREATE TRIGGER `accounts_follow_ledger_insert` BEFORE INSERT ON `accounts`
WHEN new.`balance` IS NOT coalesce((SELECT e.`balance_after` FROM `ledger_entries` e
  WHERE e.`partner_id` = new.`partner_id` AND e.`currency` = new.`currency` ORDER BY e.`entry_id` DESC LIMIT 1), 0)
BEGIN
  SELECT RAISE(ABORT, 'accounts_follow_ledger: a balance is set only by its ledger entries');
END;--> statement-breakpoint
CREATE TRIGGER `accounts_follow_ledger_update` BEFORE UPDATE ON `accounts`
WHEN new.`partner_id` IS NOT old.`partner_id` OR new.`currency` IS NOT old.`currency`
  OR new.`balance` IS NOT coalesce((SELECT e.`balance_after` FROM `ledger_entries` e
    WHERE e.`partner_id` = new.`partner_id` AND e.`currency` = new.`currency` ORDER BY e.`entry_id` DESC LIMIT 1), 0)
BEGIN
  SELECT RAISE(ABORT, 'accounts_follow_ledger: a balance is set only by its ledger entries');
END;--> statement-breakpoint
CREATE TRIGGER `accounts_keep` BEFORE DELETE ON `accounts`
WHEN EXISTS (SELECT 1 FROM `ledger_entries` e WHERE e.`partner_id` = old.`partner_id` AND e.`currency` = old.`currency`)
BEGIN
  SELECT RAISE(ABORT, 'accounts_follow_ledger: an account with ledger entries is never deleted');
END;--> statement-breakpoint
-- 7. An order is written only with its debit (posted first, in the same transaction), and refunded only
-- with its refund entry; its money (partner, currency, amount) never changes, and it is never deleted.
CREATE TRIGGER `orders_debited` AFTER INSERT ON `orders`
WHEN NOT EXISTS (SELECT 1 FROM `ledger_entries` e WHERE e.`order_id` = new.`order_id` AND e.`kind` = 'order_debit'
    AND e.`partner_id` = new.`partner_id` AND e.`currency` = new.`currency` AND e.`amount` = -new.`amount`)
  OR (new.`refunded` AND NOT EXISTS (SELECT 1 FROM `ledger_entries` e WHERE e.`order_id` = new.`order_id` AND e.`kind` = 'order_refund'))
BEGIN
  SELECT RAISE(ABORT, 'orders_debited: an order is written only after its debit (and its refund when refunded)');
END;--> statement-breakpoint
CREATE TRIGGER `orders_refunded_flag` BEFORE UPDATE OF `refunded` ON `orders`
WHEN new.`refunded` IS NOT old.`refunded` AND (NOT new.`refunded`
  OR NOT EXISTS (SELECT 1 FROM `ledger_entries` e WHERE e.`order_id` = new.`order_id` AND e.`kind` = 'order_refund'))
BEGIN
  SELECT RAISE(ABORT, 'orders_refunded: refunded is set only with the refund entry, and never unset');
END;--> statement-breakpoint
CREATE TRIGGER `orders_money_fixed` BEFORE UPDATE OF `order_id`, `partner_id`, `currency`, `amount` ON `orders`
WHEN new.`order_id` IS NOT old.`order_id` OR new.`partner_id` IS NOT old.`partner_id` OR new.`currency` IS NOT old.`currency` OR new.`amount` IS NOT old.`amount`
BEGIN
  SELECT RAISE(ABORT, 'orders_money_fixed: an order''s partner, currency and amount never change');
END;--> statement-breakpoint
CREATE TRIGGER `orders_keep` BEFORE DELETE ON `orders`
BEGIN
  SELECT RAISE(ABORT, 'orders_keep: orders are never deleted');
END;--> statement-breakpoint
-- 8. A credited top-up is history too.
CREATE TRIGGER `topups_no_update` BEFORE UPDATE ON `topups`
BEGIN
  SELECT RAISE(ABORT, 'topups_append_only: top-ups are never changed; post an adjustment');
END;--> statement-breakpoint
CREATE TRIGGER `topups_no_delete` BEFORE DELETE ON `topups`
BEGIN
  SELECT RAISE(ABORT, 'topups_append_only: top-ups are never deleted; post an adjustment');
END;
