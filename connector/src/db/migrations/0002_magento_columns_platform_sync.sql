CREATE TABLE `service_job_lease` (
	`name` varchar(64) NOT NULL,
	`owner` char(36),
	`expires_at` datetime(3),
	`acquired_at` datetime(3),
	CONSTRAINT `service_job_lease_name` PRIMARY KEY(`name`)
);
--> statement-breakpoint
CREATE TABLE `service_platform_link` (
	`service_chain_id` int unsigned NOT NULL,
	`core_api_url` varchar(2048) NOT NULL,
	`access_token_sealed` text NOT NULL,
	`app_hostname` varchar(255) NOT NULL,
	`linked_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `service_platform_link_service_chain_id` PRIMARY KEY(`service_chain_id`)
);
--> statement-breakpoint
-- Magento refuses NULL in these address columns: rows written before this migration get "" (read back as null).
UPDATE `customer_address_entity` SET `city` = COALESCE(`city`, ''), `country_id` = COALESCE(`country_id`, ''), `firstname` = COALESCE(`firstname`, ''), `lastname` = COALESCE(`lastname`, ''), `street` = COALESCE(`street`, ''), `telephone` = COALESCE(`telephone`, '') WHERE `city` IS NULL OR `country_id` IS NULL OR `firstname` IS NULL OR `lastname` IS NULL OR `street` IS NULL OR `telephone` IS NULL;--> statement-breakpoint
ALTER TABLE `customer_address_entity` MODIFY COLUMN `created_at` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP;--> statement-breakpoint
ALTER TABLE `customer_address_entity` MODIFY COLUMN `updated_at` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP;--> statement-breakpoint
ALTER TABLE `customer_address_entity` MODIFY COLUMN `city` varchar(255) NOT NULL;--> statement-breakpoint
ALTER TABLE `customer_address_entity` MODIFY COLUMN `country_id` varchar(255) NOT NULL;--> statement-breakpoint
ALTER TABLE `customer_address_entity` MODIFY COLUMN `firstname` varchar(255) NOT NULL;--> statement-breakpoint
ALTER TABLE `customer_address_entity` MODIFY COLUMN `lastname` varchar(255) NOT NULL;--> statement-breakpoint
ALTER TABLE `customer_address_entity` MODIFY COLUMN `street` text NOT NULL;--> statement-breakpoint
ALTER TABLE `customer_address_entity` MODIFY COLUMN `telephone` varchar(255) NOT NULL;--> statement-breakpoint
ALTER TABLE `customer_entity` MODIFY COLUMN `created_at` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP;--> statement-breakpoint
ALTER TABLE `customer_entity` MODIFY COLUMN `updated_at` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP;--> statement-breakpoint
ALTER TABLE `customer_entity` MODIFY COLUMN `first_failure` timestamp;--> statement-breakpoint
ALTER TABLE `customer_entity` MODIFY COLUMN `lock_expires` timestamp;--> statement-breakpoint
ALTER TABLE `customer_address_entity` ADD `increment_id` varchar(50);--> statement-breakpoint
ALTER TABLE `customer_address_entity` ADD `company` varchar(255);--> statement-breakpoint
ALTER TABLE `customer_address_entity` ADD `fax` varchar(255);--> statement-breakpoint
ALTER TABLE `customer_address_entity` ADD `middlename` varchar(255);--> statement-breakpoint
ALTER TABLE `customer_address_entity` ADD `prefix` varchar(40);--> statement-breakpoint
ALTER TABLE `customer_address_entity` ADD `suffix` varchar(40);--> statement-breakpoint
ALTER TABLE `customer_address_entity` ADD `vat_id` varchar(255);--> statement-breakpoint
ALTER TABLE `customer_address_entity` ADD `vat_is_valid` int unsigned;--> statement-breakpoint
ALTER TABLE `customer_address_entity` ADD `vat_request_date` varchar(255);--> statement-breakpoint
ALTER TABLE `customer_address_entity` ADD `vat_request_id` varchar(255);--> statement-breakpoint
ALTER TABLE `customer_address_entity` ADD `vat_request_success` int unsigned;--> statement-breakpoint
ALTER TABLE `customer_entity` ADD `increment_id` varchar(50);--> statement-breakpoint
ALTER TABLE `customer_entity` ADD `prefix` varchar(40);--> statement-breakpoint
ALTER TABLE `customer_entity` ADD `middlename` varchar(255);--> statement-breakpoint
ALTER TABLE `customer_entity` ADD `suffix` varchar(40);--> statement-breakpoint
ALTER TABLE `customer_entity` ADD `rp_token` varchar(128);--> statement-breakpoint
ALTER TABLE `customer_entity` ADD `rp_token_created_at` datetime;--> statement-breakpoint
ALTER TABLE `customer_entity` ADD `taxvat` varchar(50);--> statement-breakpoint
ALTER TABLE `customer_entity` ADD `confirmation` varchar(64);--> statement-breakpoint
ALTER TABLE `customer_entity` ADD `session_cutoff` timestamp;--> statement-breakpoint
ALTER TABLE `service_customer_data` ADD `platform_modified_at` datetime;--> statement-breakpoint
CREATE INDEX `CUSTOMER_ENTITY_STORE_ID` ON `customer_entity` (`store_id`);--> statement-breakpoint
CREATE INDEX `CUSTOMER_ENTITY_FIRSTNAME` ON `customer_entity` (`firstname`);--> statement-breakpoint
CREATE INDEX `CUSTOMER_ENTITY_LASTNAME` ON `customer_entity` (`lastname`);