CREATE TABLE `balance_alerts` (
	`partner_id` integer NOT NULL,
	`currency` text NOT NULL,
	`threshold` integer NOT NULL,
	`alerted` integer DEFAULT false NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`partner_id`, `currency`)
);
--> statement-breakpoint
ALTER TABLE `partners` ADD `webhook_events` text;