CREATE TABLE `bot_sessions` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `bot_users` (
	`telegram_user_id` integer PRIMARY KEY NOT NULL,
	`chat_id` integer NOT NULL,
	`partner_id` integer NOT NULL,
	`role` text NOT NULL,
	`language` text NOT NULL,
	`linked_at` integer NOT NULL,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`partner_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `bot_users_partner` ON `bot_users` (`partner_id`);--> statement-breakpoint
CREATE TABLE `invites` (
	`code` text PRIMARY KEY NOT NULL,
	`partner_id` integer NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`used_by` integer,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`partner_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `invites_partner` ON `invites` (`partner_id`);