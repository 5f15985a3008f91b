ALTER TABLE `business_search_tokens` ADD `latitude` double;--> statement-breakpoint
ALTER TABLE `business_search_tokens` ADD `longitude` double;