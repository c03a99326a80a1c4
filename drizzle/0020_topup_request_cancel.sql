ALTER TABLE `deposits` ADD `chain_time` integer;--> statement-breakpoint
ALTER TABLE `topup_requests` ADD `canceled_at` integer;