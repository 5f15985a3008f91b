CREATE TABLE `core_config_data` (
	`config_id` int unsigned AUTO_INCREMENT NOT NULL,
	`scope` varchar(8) NOT NULL DEFAULT 'default',
	`scope_id` int NOT NULL DEFAULT 0,
	`path` varchar(255) NOT NULL DEFAULT 'general',
	`value` text,
	`updated_at` datetime,
	CONSTRAINT `core_config_data_config_id` PRIMARY KEY(`config_id`),
	CONSTRAINT `CORE_CONFIG_DATA_SCOPE_SCOPE_ID_PATH` UNIQUE(`scope`,`scope_id`,`path`)
);
--> statement-breakpoint
CREATE TABLE `customer_address_entity` (
	`entity_id` int unsigned AUTO_INCREMENT NOT NULL,
	`parent_id` int unsigned,
	`created_at` datetime NOT NULL,
	`updated_at` datetime NOT NULL,
	`is_active` smallint unsigned NOT NULL DEFAULT 1,
	`city` varchar(255),
	`country_id` varchar(255),
	`firstname` varchar(255),
	`lastname` varchar(255),
	`postcode` varchar(255),
	`region` varchar(255),
	`region_id` int unsigned,
	`street` text,
	`telephone` varchar(255),
	CONSTRAINT `customer_address_entity_entity_id` PRIMARY KEY(`entity_id`)
);
--> statement-breakpoint
CREATE TABLE `customer_entity` (
	`entity_id` int unsigned AUTO_INCREMENT NOT NULL,
	`website_id` smallint unsigned,
	`email` varchar(255),
	`group_id` smallint unsigned NOT NULL DEFAULT 0,
	`store_id` smallint unsigned DEFAULT 0,
	`created_at` datetime NOT NULL,
	`updated_at` datetime NOT NULL,
	`is_active` smallint unsigned NOT NULL DEFAULT 1,
	`disable_auto_group_change` smallint unsigned NOT NULL DEFAULT 0,
	`created_in` varchar(255),
	`firstname` varchar(255),
	`lastname` varchar(255),
	`dob` date,
	`password_hash` varchar(128),
	`default_billing` int unsigned,
	`default_shipping` int unsigned,
	`gender` smallint unsigned,
	`failures_num` smallint DEFAULT 0,
	`first_failure` datetime,
	`lock_expires` datetime,
	CONSTRAINT `customer_entity_entity_id` PRIMARY KEY(`entity_id`),
	CONSTRAINT `CUSTOMER_ENTITY_EMAIL_WEBSITE_ID` UNIQUE(`email`,`website_id`)
);
--> statement-breakpoint
CREATE TABLE `customer_group` (
	`customer_group_id` int unsigned AUTO_INCREMENT NOT NULL,
	`customer_group_code` varchar(32) NOT NULL,
	`tax_class_id` int unsigned NOT NULL DEFAULT 3,
	CONSTRAINT `customer_group_customer_group_id` PRIMARY KEY(`customer_group_id`)
);
--> statement-breakpoint
CREATE TABLE `directory_country_region` (
	`region_id` int unsigned AUTO_INCREMENT NOT NULL,
	`country_id` varchar(4) NOT NULL DEFAULT '0',
	`code` varchar(32),
	`default_name` varchar(255),
	CONSTRAINT `directory_country_region_region_id` PRIMARY KEY(`region_id`)
);
--> statement-breakpoint
CREATE TABLE `newsletter_subscriber` (
	`subscriber_id` int unsigned AUTO_INCREMENT NOT NULL,
	`store_id` smallint unsigned DEFAULT 0,
	`change_status_at` datetime,
	`customer_id` int unsigned NOT NULL DEFAULT 0,
	`subscriber_email` varchar(150),
	`subscriber_status` int NOT NULL DEFAULT 0,
	`subscriber_confirm_code` varchar(32),
	CONSTRAINT `newsletter_subscriber_subscriber_id` PRIMARY KEY(`subscriber_id`)
);
--> statement-breakpoint
CREATE TABLE `service_chain_website` (
	`service_chain_id` int unsigned NOT NULL,
	`website_id` smallint unsigned NOT NULL,
	CONSTRAINT `service_chain_website_pk` PRIMARY KEY(`service_chain_id`,`website_id`),
	CONSTRAINT `service_chain_website_by_website` UNIQUE(`website_id`)
);
--> statement-breakpoint
CREATE TABLE `service_customer_data` (
	`customer_id` int unsigned NOT NULL,
	`service_chain_id` int unsigned NOT NULL,
	`user_id` bigint unsigned,
	`member_number` varchar(64),
	`programme_opted_in` boolean,
	`mailing_list_subscribed` boolean,
	`printed_mailing_list_subscribed` boolean,
	`mailing_list_sub_offered` boolean,
	`last_hash` char(64),
	`updated_at` datetime NOT NULL,
	CONSTRAINT `service_customer_data_customer_id` PRIMARY KEY(`customer_id`),
	CONSTRAINT `service_customer_by_chain_user` UNIQUE(`service_chain_id`,`user_id`),
	CONSTRAINT `service_customer_by_chain_member_number` UNIQUE(`service_chain_id`,`member_number`)
);
--> statement-breakpoint
CREATE TABLE `service_integration_token` (
	`id` int unsigned AUTO_INCREMENT NOT NULL,
	`token_hash` char(64) NOT NULL,
	`name` varchar(255),
	`is_active` boolean NOT NULL DEFAULT true,
	`created_at` datetime NOT NULL,
	CONSTRAINT `service_integration_token_id` PRIMARY KEY(`id`),
	CONSTRAINT `service_integration_token_by_hash` UNIQUE(`token_hash`)
);
--> statement-breakpoint
CREATE TABLE `store` (
	`store_id` smallint unsigned AUTO_INCREMENT NOT NULL,
	`code` varchar(32),
	`website_id` smallint unsigned NOT NULL DEFAULT 0,
	`group_id` smallint unsigned NOT NULL DEFAULT 0,
	`name` varchar(255) NOT NULL,
	`sort_order` smallint unsigned NOT NULL DEFAULT 0,
	`is_active` smallint unsigned NOT NULL DEFAULT 0,
	CONSTRAINT `store_store_id` PRIMARY KEY(`store_id`),
	CONSTRAINT `STORE_CODE` UNIQUE(`code`)
);
--> statement-breakpoint
CREATE TABLE `store_group` (
	`group_id` smallint unsigned AUTO_INCREMENT NOT NULL,
	`website_id` smallint unsigned NOT NULL DEFAULT 0,
	`name` varchar(255) NOT NULL,
	`root_category_id` int unsigned NOT NULL DEFAULT 0,
	`default_store_id` smallint unsigned NOT NULL DEFAULT 0,
	`code` varchar(32),
	CONSTRAINT `store_group_group_id` PRIMARY KEY(`group_id`),
	CONSTRAINT `STORE_GROUP_CODE` UNIQUE(`code`)
);
--> statement-breakpoint
CREATE TABLE `store_website` (
	`website_id` smallint unsigned AUTO_INCREMENT NOT NULL,
	`code` varchar(32) NOT NULL,
	`name` varchar(64),
	`sort_order` smallint unsigned NOT NULL DEFAULT 0,
	`default_group_id` smallint unsigned NOT NULL DEFAULT 0,
	`is_default` smallint unsigned DEFAULT 0,
	CONSTRAINT `store_website_website_id` PRIMARY KEY(`website_id`),
	CONSTRAINT `STORE_WEBSITE_CODE` UNIQUE(`code`)
);
--> statement-breakpoint
CREATE INDEX `CUSTOMER_ADDRESS_ENTITY_PARENT_ID` ON `customer_address_entity` (`parent_id`);--> statement-breakpoint
CREATE INDEX `CUSTOMER_ENTITY_WEBSITE_ID` ON `customer_entity` (`website_id`);--> statement-breakpoint
CREATE INDEX `DIRECTORY_COUNTRY_REGION_COUNTRY_ID` ON `directory_country_region` (`country_id`);--> statement-breakpoint
CREATE INDEX `NEWSLETTER_SUBSCRIBER_CUSTOMER_ID` ON `newsletter_subscriber` (`customer_id`);--> statement-breakpoint
CREATE INDEX `NEWSLETTER_SUBSCRIBER_SUBSCRIBER_EMAIL` ON `newsletter_subscriber` (`subscriber_email`);--> statement-breakpoint
CREATE INDEX `STORE_WEBSITE_ID` ON `store` (`website_id`);--> statement-breakpoint
CREATE INDEX `STORE_GROUP_ID` ON `store` (`group_id`);--> statement-breakpoint
CREATE INDEX `STORE_GROUP_WEBSITE_ID` ON `store_group` (`website_id`);