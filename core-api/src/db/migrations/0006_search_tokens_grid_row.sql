ALTER TABLE `business_search_tokens` ADD `geo_row` smallint;--> statement-breakpoint
-- Fill the grid row (businesses/geo.ts: 0.02-degree rows) before indexing it.
UPDATE `business_search_tokens`
SET `geo_row` = LEAST(8999, GREATEST(0, FLOOR((`latitude` + 90) / 2e-2)))
WHERE `latitude` IS NOT NULL;--> statement-breakpoint
CREATE INDEX `business_search_tokens_by_row_and_word` ON `business_search_tokens` (`chain_id`,`field`,`geo_row`,`token`);
