-- GET /stats: order_stats_hourly follows every write of `orders` in the writer's own transaction (schema.ts).
-- A bucket is (partner, hour of created_at, type, status, currency, refunded); a change of any of these or
-- of the amount moves the order from its old bucket to its new one.
CREATE TRIGGER `order_stats_insert` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `order_stats_hourly` (`partner_id`, `hour`, `type`, `status`, `currency`, `refunded`, `orders`, `amount`)
  VALUES (new.`partner_id`, new.`created_at` / 3600000, new.`type`, new.`status`, new.`currency`, new.`refunded`, 1, new.`amount`)
  ON CONFLICT DO UPDATE SET `orders` = `orders` + 1, `amount` = `amount` + excluded.`amount`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_stats_update` AFTER UPDATE OF `partner_id`, `created_at`, `type`, `status`, `currency`, `refunded`, `amount` ON `orders`
WHEN old.`partner_id` IS NOT new.`partner_id` OR old.`created_at` / 3600000 IS NOT new.`created_at` / 3600000 OR old.`type` IS NOT new.`type`
  OR old.`status` IS NOT new.`status` OR old.`currency` IS NOT new.`currency` OR old.`refunded` IS NOT new.`refunded` OR old.`amount` IS NOT new.`amount`
BEGIN
  UPDATE `order_stats_hourly` SET `orders` = `orders` - 1, `amount` = `amount` - old.`amount`
  WHERE `partner_id` = old.`partner_id` AND `hour` = old.`created_at` / 3600000 AND `type` = old.`type` AND `status` = old.`status`
    AND `currency` = old.`currency` AND `refunded` = old.`refunded`;
  INSERT INTO `order_stats_hourly` (`partner_id`, `hour`, `type`, `status`, `currency`, `refunded`, `orders`, `amount`)
  VALUES (new.`partner_id`, new.`created_at` / 3600000, new.`type`, new.`status`, new.`currency`, new.`refunded`, 1, new.`amount`)
  ON CONFLICT DO UPDATE SET `orders` = `orders` + 1, `amount` = `amount` + excluded.`amount`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_stats_delete` AFTER DELETE ON `orders` BEGIN
  UPDATE `order_stats_hourly` SET `orders` = `orders` - 1, `amount` = `amount` - old.`amount`
  WHERE `partner_id` = old.`partner_id` AND `hour` = old.`created_at` / 3600000 AND `type` = old.`type` AND `status` = old.`status`
    AND `currency` = old.`currency` AND `refunded` = old.`refunded`;
END;
--> statement-breakpoint
-- the orders written before this migration
INSERT INTO `order_stats_hourly` (`partner_id`, `hour`, `type`, `status`, `currency`, `refunded`, `orders`, `amount`)
SELECT `partner_id`, `created_at` / 3600000, `type`, `status`, `currency`, `refunded`, count(*), sum(`amount`)
FROM `orders` GROUP BY 1, 2, 3, 4, 5, 6;
