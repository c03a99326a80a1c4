CREATE TABLE `webhook_attempts` (
	`attempt_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`webhook_id` text NOT NULL,
	`number` integer NOT NULL,
	`manual` integer NOT NULL,
	`sent_at` integer NOT NULL,
	`status_code` integer,
	`error` text,
	`duration_ms` integer
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery` ON `webhook_attempts` (`webhook_id`,`attempt_id`);--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `manual_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_partner_event` ON `webhook_deliveries` (`partner_id`,`event_id`);