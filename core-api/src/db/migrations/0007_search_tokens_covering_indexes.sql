DROP INDEX `business_search_tokens_by_row_and_word` ON `business_search_tokens`;--> statement-breakpoint
CREATE INDEX `business_search_tokens_by_word` ON `business_search_tokens` (`chain_id`,`field`,`token`);--> statement-breakpoint
CREATE INDEX `business_search_tokens_by_row_and_word` ON `business_search_tokens` (`chain_id`,`field`,`geo_row`,`token`,`latitude`,`longitude`);