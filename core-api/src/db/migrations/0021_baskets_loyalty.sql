CREATE TABLE `basket_returns` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`original_basket_id` int NOT NULL,
	`retailer_item_code` varchar(64) NOT NULL,
	`return_basket_id` int NOT NULL,
	`quantity` double NOT NULL,
	CONSTRAINT `basket_returns_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
ALTER TABLE `baskets` ADD `retailer_basket_code` varchar(255);--> statement-breakpoint
ALTER TABLE `baskets` ADD `basket_platform_type` varchar(16);--> statement-breakpoint
ALTER TABLE `baskets` ADD `basket_discount` decimal(12,2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `baskets` ADD `pricing` text;--> statement-breakpoint
ALTER TABLE `baskets` ADD `request_hash` char(64);--> statement-breakpoint
ALTER TABLE `chains` ADD `referral_code_submission_window_quantity` int;--> statement-breakpoint
ALTER TABLE `chains` ADD `referral_code_submission_window_unit` varchar(16);--> statement-breakpoint
ALTER TABLE `baskets` ADD CONSTRAINT `baskets_by_retailer_code` UNIQUE(`chain_id`,`retailer_basket_code`);--> statement-breakpoint
CREATE INDEX `basket_returns_of_line` ON `basket_returns` (`original_basket_id`,`retailer_item_code`);