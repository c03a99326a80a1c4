DROP INDEX `orders_review`;--> statement-breakpoint
DROP INDEX `orders_premium_open`;--> statement-breakpoint
CREATE INDEX `orders_in_review` ON `orders` (`review_stage`) WHERE "orders"."review_stage" is not null;--> statement-breakpoint
CREATE INDEX `orders_open_premium` ON `orders` (`account`) WHERE "orders"."type" = 'premium' and "orders"."status" = 'processing';