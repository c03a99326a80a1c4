CREATE TABLE `accounts` (
	`partner_id` integer NOT NULL,
	`currency` text NOT NULL,
	`balance` integer NOT NULL,
	PRIMARY KEY(`partner_id`, `currency`),
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`partner_id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "balance_not_negative" CHECK("accounts"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`key_id` text PRIMARY KEY NOT NULL,
	`partner_id` integer NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`ip_whitelist` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`partner_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_partner` ON `api_keys` (`partner_id`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`audit_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`target` text,
	`data` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `blocked_webhook_hosts` (
	`host` text PRIMARY KEY NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `events` (
	`event_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`partner_id` integer NOT NULL,
	`order_id` text NOT NULL,
	`event` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_order` ON `events` (`order_id`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`partner_id` integer NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`state` text NOT NULL,
	`order_id` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`partner_id`, `key`)
);
--> statement-breakpoint
CREATE TABLE `jobs` (
	`job_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`ref` text NOT NULL,
	`run_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `jobs_run_at` ON `jobs` (`run_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_kind_ref` ON `jobs` (`kind`,`ref`);--> statement-breakpoint
CREATE TABLE `kv` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`entry_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`partner_id` integer NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	`kind` text NOT NULL,
	`order_id` text,
	`topup_id` text,
	`balance_after` integer NOT NULL,
	`created_at` integer NOT NULL,
	CONSTRAINT "balance_after_not_negative" CHECK("ledger_entries"."balance_after" >= 0)
);
--> statement-breakpoint
CREATE INDEX `ledger_partner` ON `ledger_entries` (`partner_id`,`currency`,`entry_id`);--> statement-breakpoint
CREATE INDEX `ledger_order` ON `ledger_entries` (`order_id`);--> statement-breakpoint
CREATE TABLE `orders` (
	`seq` integer PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`partner_id` integer NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`price_usd_ref` integer,
	`quantity` integer NOT NULL,
	`recipient` text NOT NULL,
	`account` text NOT NULL,
	`refunded` integer DEFAULT false NOT NULL,
	`stage` text NOT NULL,
	`review_stage` text,
	`review_since` integer,
	`failure_stage` text,
	`failure_reason` text,
	`gift` text,
	`delivery` text,
	`webhook_url` text,
	`idempotency_key` text NOT NULL,
	`created_at` integer NOT NULL,
	`completed_at` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_order_id` ON `orders` (`order_id`);--> statement-breakpoint
CREATE INDEX `orders_partner_seq` ON `orders` (`partner_id`,`seq`);--> statement-breakpoint
CREATE INDEX `orders_partner_status_seq` ON `orders` (`partner_id`,`status`,`seq`);--> statement-breakpoint
CREATE INDEX `orders_partner_type_seq` ON `orders` (`partner_id`,`type`,`seq`);--> statement-breakpoint
CREATE INDEX `orders_review` ON `orders` (`review_stage`);--> statement-breakpoint
CREATE INDEX `orders_premium_open` ON `orders` (`account`,`type`,`status`);--> statement-breakpoint
CREATE TABLE `partners` (
	`partner_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`status` text NOT NULL,
	`webhook_url` text,
	`webhook_secret_enc` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sandbox_accounts` (
	`username` text PRIMARY KEY NOT NULL,
	`first_seen_at` integer NOT NULL,
	`premium_until` integer
);
--> statement-breakpoint
CREATE TABLE `sandbox_dns` (
	`hostname` text PRIMARY KEY NOT NULL,
	`addresses` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `topups` (
	`topup_id` text PRIMARY KEY NOT NULL,
	`partner_id` integer NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	`network` text NOT NULL,
	`tx_hash` text NOT NULL,
	`source` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `topups_tx_hash` ON `topups` (`tx_hash`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`webhook_id` text PRIMARY KEY NOT NULL,
	`event_id` integer NOT NULL,
	`partner_id` integer NOT NULL,
	`order_id` text NOT NULL,
	`event` text NOT NULL,
	`url` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`rejected_reason` text,
	`next_attempt_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_order` ON `webhook_deliveries` (`order_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_status` ON `webhook_deliveries` (`status`);