CREATE TABLE `campaign_group_campaigns` (
	`campaign_group_id` int NOT NULL,
	`campaign_id` int NOT NULL,
	`chain_id` int NOT NULL,
	CONSTRAINT `campaign_group_campaigns_pk` PRIMARY KEY(`campaign_group_id`,`campaign_id`)
);
--> statement-breakpoint
CREATE TABLE `campaign_groups` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`name` varchar(255) NOT NULL,
	`active_date_from` datetime,
	`active_date_until` datetime,
	`last_updated_by` int,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `campaign_groups_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `tags` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`model_class` varchar(64) NOT NULL DEFAULT 'user',
	`value` varchar(255) NOT NULL,
	`active` boolean NOT NULL DEFAULT true,
	`deleted` boolean NOT NULL DEFAULT false,
	`last_updated_by` int,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `tags_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE INDEX `campaign_group_campaigns_by_campaign` ON `campaign_group_campaigns` (`chain_id`,`campaign_id`);--> statement-breakpoint
CREATE INDEX `campaign_groups_by_chain` ON `campaign_groups` (`chain_id`,`id`);--> statement-breakpoint
CREATE INDEX `tags_by_chain_model_class` ON `tags` (`chain_id`,`model_class`,`id`);