CREATE TABLE `order_stats_hourly` (
	`partner_id` integer NOT NULL,
	`hour` integer NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`currency` text NOT NULL,
	`refunded` integer NOT NULL,
	`orders` integer NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY(`partner_id`, `hour`, `type`, `status`, `currency`, `refunded`)
);
--> statement-breakpoint
CREATE INDEX `orders_partner_created` ON `orders` (`partner_id`,`created_at`);