ALTER TABLE `orders` ADD `supplier_cost` integer;--> statement-breakpoint
CREATE INDEX `orders_completed_at` ON `orders` (`completed_at`) WHERE "orders"."completed_at" is not null;