CREATE TABLE `deposits` (
	`deposit_id` text PRIMARY KEY NOT NULL,
	`network` text NOT NULL,
	`asset` text NOT NULL,
	`amount` text NOT NULL,
	`currency` text,
	`amount_minor` integer,
	`tx_hash` text NOT NULL,
	`from_address` text,
	`to_address` text NOT NULL,
	`comment` text,
	`confirmations` integer NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`partner_id` integer,
	`topup_id` text,
	`request_id` text,
	`note` text,
	`source` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`resolved_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deposits_network_tx` ON `deposits` (`network`,`tx_hash`);--> statement-breakpoint
CREATE INDEX `deposits_status` ON `deposits` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `topup_requests` (
	`request_id` text PRIMARY KEY NOT NULL,
	`partner_id` integer NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	`amount_to_send` integer NOT NULL,
	`comment_code` text,
	`status` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`credited_deposit_id` text,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`partner_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `topup_requests_open` ON `topup_requests` (`currency`,`status`,`amount_to_send`);--> statement-breakpoint
CREATE INDEX `topup_requests_partner` ON `topup_requests` (`partner_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `topup_requests_comment_code` ON `topup_requests` (`comment_code`);--> statement-breakpoint
CREATE TABLE `watcher_positions` (
	`network` text PRIMARY KEY NOT NULL,
	`position` text NOT NULL,
	`updated_at` integer NOT NULL
);
