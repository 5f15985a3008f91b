ALTER TABLE `baskets` ADD `retailer_basket_code` varchar(255);--> statement-breakpoint
ALTER TABLE `baskets` ADD `basket_platform_type` varchar(16);--> statement-breakpoint
ALTER TABLE `baskets` ADD `basket_discount` decimal(12,2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `baskets` ADD `pricing` text;--> statement-breakpoint
ALTER TABLE `baskets` ADD `request_hash` char(64);--> statement-breakpoint
ALTER TABLE `baskets` ADD CONSTRAINT `baskets_by_retailer_code` UNIQUE(`chain_id`,`retailer_basket_code`);