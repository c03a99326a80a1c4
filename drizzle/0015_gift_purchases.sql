CREATE TABLE `gift_purchases` (
	`order_id` text PRIMARY KEY NOT NULL,
	`gift` text NOT NULL,
	`cap_nano` text NOT NULL,
	`state` text NOT NULL,
	`form_ref` text,
	`form_currency` text,
	`form_amount` text,
	`receipt` text,
	`detail` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`paying_since` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
