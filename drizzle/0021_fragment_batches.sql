CREATE TABLE `fragment_batches` (
	`batch_id` text PRIMARY KEY NOT NULL,
	`wallet` text NOT NULL,
	`seqno` integer NOT NULL,
	`valid_until` integer NOT NULL,
	`norm_hash` text NOT NULL,
	`boc` text NOT NULL,
	`state` text NOT NULL,
	`orders` integer NOT NULL,
	`messages` integer NOT NULL,
	`amount_nano` text NOT NULL,
	`tx_hash` text,
	`tx_lt` text,
	`tx_utime` integer,
	`detail` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fragment_batches_norm_hash` ON `fragment_batches` (`norm_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `fragment_batches_in_flight` ON `fragment_batches` (`wallet`) WHERE state in ('signed', 'sent');--> statement-breakpoint
CREATE UNIQUE INDEX `fragment_batches_live_seqno` ON `fragment_batches` (`wallet`,`seqno`) WHERE state <> 'void';--> statement-breakpoint
CREATE INDEX `fragment_batches_wallet_seqno` ON `fragment_batches` (`wallet`,`seqno`);--> statement-breakpoint
CREATE INDEX `fragment_batches_state` ON `fragment_batches` (`wallet`,`state`);--> statement-breakpoint
-- Every payment written before batches becomes a batch of its own, with its signed message. One still
-- unsettled is looked up again from the start (its wallet transaction, then its messages by reference).
INSERT INTO `fragment_batches` (`batch_id`, `wallet`, `seqno`, `valid_until`, `norm_hash`, `boc`, `state`, `orders`, `messages`, `amount_nano`, `tx_hash`, `tx_lt`, `tx_utime`, `detail`, `created_at`, `updated_at`)
  SELECT `norm_hash`, `wallet`, `seqno`, `valid_until`, `norm_hash`, `boc`,
    CASE `state` WHEN 'paid' THEN 'done' ELSE `state` END,
    1, 1, `amount_nano`,
    CASE WHEN `state` IN ('signed', 'sent') THEN NULL ELSE `tx_hash` END,
    CASE WHEN `state` IN ('signed', 'sent') THEN NULL ELSE `tx_lt` END,
    NULL, `detail`, `created_at`, `updated_at`
  FROM `fragment_payments`;--> statement-breakpoint
DROP INDEX `fragment_payments_wallet_seqno`;--> statement-breakpoint
DROP INDEX `fragment_payments_ref`;--> statement-breakpoint
DROP INDEX `fragment_payments_state`;--> statement-breakpoint
CREATE TABLE `__new_fragment_payments` (
	`order_id` text PRIMARY KEY NOT NULL,
	`batch_id` text NOT NULL,
	`product` text NOT NULL,
	`state` text NOT NULL,
	`wallet` text NOT NULL,
	`seqno` integer NOT NULL,
	`valid_until` integer NOT NULL,
	`norm_hash` text NOT NULL,
	`amount_nano` text NOT NULL,
	`req_id` text NOT NULL,
	`ref` text,
	`confirm_method` text,
	`confirm_params` text,
	`confirmed_at` integer,
	`tx_hash` text,
	`tx_lt` text,
	`out_hashes` text,
	`detail` text,
	`attempts` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);--> statement-breakpoint
INSERT INTO `__new_fragment_payments` (`order_id`, `batch_id`, `product`, `state`, `wallet`, `seqno`, `valid_until`, `norm_hash`, `amount_nano`, `req_id`, `ref`, `confirm_method`, `confirm_params`, `confirmed_at`, `tx_hash`, `tx_lt`, `out_hashes`, `detail`, `attempts`, `created_at`, `updated_at`)
  SELECT `order_id`, `norm_hash`, `product`, `state`, `wallet`, `seqno`, `valid_until`, `norm_hash`, `amount_nano`, `req_id`, `ref`, `confirm_method`, `confirm_params`, `confirmed_at`, `tx_hash`, `tx_lt`, NULL, `detail`, `attempts`, `created_at`, `updated_at`
  FROM `fragment_payments`;--> statement-breakpoint
DROP TABLE `fragment_payments`;--> statement-breakpoint
ALTER TABLE `__new_fragment_payments` RENAME TO `fragment_payments`;--> statement-breakpoint
CREATE INDEX `fragment_payments_state` ON `fragment_payments` (`wallet`,`state`);--> statement-breakpoint
CREATE INDEX `fragment_payments_batch` ON `fragment_payments` (`batch_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `fragment_payments_ref` ON `fragment_payments` (`ref`) WHERE state <> 'void';--> statement-breakpoint
-- A live payment (anything but void) is never moved to another batch, and a paid one never changes state:
-- refused here whatever the code above does.
CREATE TRIGGER `fragment_payments_live_kept` BEFORE UPDATE OF `batch_id` ON `fragment_payments`
  WHEN OLD.`state` <> 'void' AND NEW.`batch_id` <> OLD.`batch_id`
  BEGIN SELECT RAISE(ABORT, 'fragment_payments: a live payment is never moved to another batch'); END;--> statement-breakpoint
CREATE TRIGGER `fragment_payments_paid_final` BEFORE UPDATE OF `state` ON `fragment_payments`
  WHEN OLD.`state` = 'paid' AND NEW.`state` <> 'paid'
  BEGIN SELECT RAISE(ABORT, 'fragment_payments: a paid payment stays paid'); END;
