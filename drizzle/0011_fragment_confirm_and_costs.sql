CREATE TABLE `fragment_order_costs` (
	`order_id` text PRIMARY KEY NOT NULL,
	`cost_nano` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `fragment_payments` ADD `confirm_method` text;--> statement-breakpoint
ALTER TABLE `fragment_payments` ADD `confirm_params` text;--> statement-breakpoint
ALTER TABLE `fragment_payments` ADD `confirmed_at` integer;--> statement-breakpoint
CREATE INDEX `fragment_payments_wallet_seqno` ON `fragment_payments` (`wallet`,`seqno`);