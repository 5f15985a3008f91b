CREATE TABLE `admin_chain_permissions` (
	`admin_user_id` int NOT NULL,
	`chain_id` int NOT NULL,
	`read` boolean NOT NULL DEFAULT false,
	`write` boolean NOT NULL DEFAULT false,
	`delete` boolean NOT NULL DEFAULT false,
	`assign` boolean NOT NULL DEFAULT false,
	`super_user` boolean NOT NULL DEFAULT false,
	`campaign` boolean NOT NULL DEFAULT false,
	`campaign_enable` boolean NOT NULL DEFAULT false,
	`analytics` boolean NOT NULL DEFAULT false,
	`export` boolean NOT NULL DEFAULT false,
	`segment_query` boolean NOT NULL DEFAULT false,
	CONSTRAINT `admin_chain_permissions_pk` PRIMARY KEY(`admin_user_id`,`chain_id`)
);
--> statement-breakpoint
CREATE TABLE `admin_users` (
	`id` int AUTO_INCREMENT NOT NULL,
	`username` varchar(255) NOT NULL,
	`password_hash` varchar(255) NOT NULL,
	`firstname` varchar(255),
	`lastname` varchar(255),
	`active` boolean NOT NULL DEFAULT true,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `admin_users_id` PRIMARY KEY(`id`),
	CONSTRAINT `admin_users_by_username` UNIQUE(`username`)
);
--> statement-breakpoint
CREATE TABLE `apps` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`hostname` varchar(255) NOT NULL,
	`name` varchar(255),
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `apps_id` PRIMARY KEY(`id`),
	CONSTRAINT `apps_by_hostname` UNIQUE(`hostname`)
);
--> statement-breakpoint
CREATE TABLE `business_search_tokens` (
	`chain_id` int NOT NULL,
	`field` tinyint NOT NULL,
	`token` varchar(64) NOT NULL,
	`business_id` int NOT NULL,
	CONSTRAINT `business_search_tokens_pk` PRIMARY KEY(`chain_id`,`field`,`token`,`business_id`)
);
--> statement-breakpoint
CREATE TABLE `businesses` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`name` varchar(255) NOT NULL,
	`owner_code` varchar(64),
	`active_owner_code` varchar(64) GENERATED ALWAYS AS (IF(deleted = 0, owner_code, NULL)) STORED,
	`address_1` varchar(255),
	`address_2` varchar(255),
	`address_3` varchar(255),
	`towncity` varchar(255),
	`region` varchar(255),
	`postalcode` varchar(20),
	`country_code` char(2),
	`latitude` double,
	`longitude` double,
	`geo_cell` int,
	`phone_number` varchar(32),
	`fax_number` varchar(56),
	`email_address` varchar(255),
	`website_url` varchar(255),
	`description` varchar(512),
	`business_format` varchar(64),
	`google_place_id` varchar(1024),
	`image_url` varchar(512),
	`review_url` varchar(512),
	`opening_times` text,
	`socialnetwork_a_url` varchar(255),
	`socialnetwork_b_url` varchar(255),
	`socialnetwork_c_username` varchar(15),
	`programme_opted_in` boolean NOT NULL DEFAULT true,
	`chain_member` boolean NOT NULL DEFAULT true,
	`is_shut_down` boolean NOT NULL DEFAULT false,
	`deleted` boolean NOT NULL DEFAULT false,
	`deleted_by` int,
	`last_updated_by` int,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `businesses_id` PRIMARY KEY(`id`),
	CONSTRAINT `businesses_unique_owner_code_per_chain` UNIQUE(`chain_id`,`active_owner_code`)
);
--> statement-breakpoint
CREATE TABLE `chains` (
	`id` int AUTO_INCREMENT NOT NULL,
	`name` varchar(255) NOT NULL,
	`deleted` boolean NOT NULL DEFAULT false,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `chains_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` int AUTO_INCREMENT NOT NULL,
	`kind` varchar(16) NOT NULL,
	`user_id` int NOT NULL,
	`key_hash` char(64) NOT NULL,
	`chain_id` int,
	`expires_at` datetime NOT NULL,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `sessions_id` PRIMARY KEY(`id`),
	CONSTRAINT `sessions_by_key_hash` UNIQUE(`key_hash`)
);
--> statement-breakpoint
CREATE INDEX `apps_by_chain` ON `apps` (`chain_id`);--> statement-breakpoint
CREATE INDEX `business_search_tokens_by_business` ON `business_search_tokens` (`business_id`);--> statement-breakpoint
CREATE INDEX `businesses_location_search` ON `businesses` (`chain_id`,`geo_cell`,`latitude`,`longitude`);--> statement-breakpoint
CREATE INDEX `businesses_list_by_created` ON `businesses` (`chain_id`,`created_date`);--> statement-breakpoint
CREATE INDEX `businesses_list_by_modified` ON `businesses` (`chain_id`,`last_modified_date`);--> statement-breakpoint
CREATE INDEX `sessions_by_user` ON `sessions` (`user_id`);