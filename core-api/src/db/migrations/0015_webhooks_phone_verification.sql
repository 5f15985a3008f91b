CREATE TABLE `webhooks` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`campaign_id` int,
	`event_type` varchar(64) NOT NULL,
	`target_url` varchar(2048) NOT NULL,
	`signing_secret` text NOT NULL,
	`provider_settings` text,
	`active` boolean NOT NULL DEFAULT true,
	`deleted` boolean NOT NULL DEFAULT false,
	`last_updated_by` int,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `webhooks_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `phone_verifications` (
	`user_id` int NOT NULL,
	`chain_id` int NOT NULL,
	`phone_number` varchar(32) NOT NULL,
	`code_hash` char(64) NOT NULL,
	`attempts` tinyint NOT NULL DEFAULT 0,
	`expires_at` datetime NOT NULL,
	`verified_date` datetime,
	`created_date` datetime NOT NULL,
	CONSTRAINT `phone_verifications_user` PRIMARY KEY(`user_id`)
);
--> statement-breakpoint
CREATE INDEX `webhooks_by_chain_event` ON `webhooks` (`chain_id`,`event_type`,`deleted`,`active`);--> statement-breakpoint
CREATE INDEX `webhooks_by_campaign` ON `webhooks` (`chain_id`,`campaign_id`);