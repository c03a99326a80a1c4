CREATE TABLE `gift_holds` (
	`gift` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sandbox_gifts` (
	`gift` text PRIMARY KEY NOT NULL,
	`price_milli` integer,
	`available` integer,
	`reserved` integer,
	`outcome` text,
	`updated_at` integer NOT NULL
);
