CREATE TABLE `fragment_payments` (
	`order_id` text PRIMARY KEY NOT NULL,
	`product` text NOT NULL,
	`state` text NOT NULL,
	`wallet` text NOT NULL,
	`seqno` integer NOT NULL,
	`valid_until` integer NOT NULL,
	`norm_hash` text NOT NULL,
	`boc` text NOT NULL,
	`amount_nano` text NOT NULL,
	`req_id` text NOT NULL,
	`tx_hash` text,
	`tx_lt` text,
	`detail` text,
	`attempts` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `fragment_payments_state` ON `fragment_payments` (`wallet`,`state`);