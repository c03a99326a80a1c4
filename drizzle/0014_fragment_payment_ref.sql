ALTER TABLE `fragment_payments` ADD `ref` text;--> statement-breakpoint
CREATE INDEX `fragment_payments_ref` ON `fragment_payments` (`ref`);