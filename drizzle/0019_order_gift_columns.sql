ALTER TABLE `orders` ADD `gift_id` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `gift_collection` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `gift_price_milli` integer;--> statement-breakpoint
UPDATE `orders` SET `gift_id` = json_extract(`gift`, '$.gift'), `gift_collection` = json_extract(`gift`, '$.collection'), `gift_price_milli` = CAST(ROUND(CAST(json_extract(`gift`, '$.price_ton') AS REAL) * 1000) AS INTEGER) WHERE `type` = 'nft' AND `gift` IS NOT NULL;
