ALTER TABLE `basket_returns` ADD `line_return_number` int NOT NULL DEFAULT 0;--> statement-breakpoint
UPDATE `basket_returns` `r` JOIN (SELECT `id`, ROW_NUMBER() OVER (PARTITION BY `original_basket_id`, `retailer_item_code` ORDER BY `id`) AS `n` FROM `basket_returns`) `numbered` ON `numbered`.`id` = `r`.`id` SET `r`.`line_return_number` = `numbered`.`n`;--> statement-breakpoint
ALTER TABLE `basket_returns` ALTER COLUMN `line_return_number` DROP DEFAULT;--> statement-breakpoint
DROP INDEX `basket_returns_of_line` ON `basket_returns`;--> statement-breakpoint
ALTER TABLE `basket_returns` ADD CONSTRAINT `basket_returns_of_line` UNIQUE(`original_basket_id`,`retailer_item_code`,`line_return_number`);
