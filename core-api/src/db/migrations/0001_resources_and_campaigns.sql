CREATE TABLE `campaigns` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`title` varchar(255) NOT NULL,
	`is_active` boolean NOT NULL DEFAULT false,
	`active_date_from` datetime,
	`active_date_until` datetime,
	`deleted` boolean NOT NULL DEFAULT false,
	`last_updated_by` int,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `campaigns_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `model_change_logs` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`model_class` varchar(64) NOT NULL,
	`model_id` int NOT NULL,
	`changed_by` int,
	`change_endpoint` varchar(255),
	`diff` text NOT NULL,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `model_change_logs_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `access_tokens` (
	`id` char(36) NOT NULL,
	`service_client_id` int NOT NULL,
	`chain_id` int NOT NULL,
	`scope` varchar(1024) NOT NULL,
	`secret_hash` char(64) NOT NULL,
	`active` boolean NOT NULL DEFAULT true,
	`deleted` boolean NOT NULL DEFAULT false,
	`last_updated_by` int,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `access_tokens_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `allowed_ip_ranges` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`cidr` varchar(255) NOT NULL,
	`active_cidr` varchar(255) GENERATED ALWAYS AS (IF(deleted = 0, cidr, NULL)) STORED,
	`notes` varchar(255),
	`deleted` boolean NOT NULL DEFAULT false,
	`last_updated_by` int,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `allowed_ip_ranges_id` PRIMARY KEY(`id`),
	CONSTRAINT `allowed_ip_ranges_unique_cidr_per_chain` UNIQUE(`chain_id`,`active_cidr`)
);
--> statement-breakpoint
CREATE TABLE `service_clients` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`name` varchar(255) NOT NULL,
	`email_contact` varchar(256),
	`enabled` boolean NOT NULL DEFAULT true,
	`is_identity_source` boolean NOT NULL DEFAULT false,
	`deleted` boolean NOT NULL DEFAULT false,
	`deleted_by` int,
	`last_updated_by` int,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `service_clients_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `content_pages` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`name` varchar(255) NOT NULL,
	`active_name` varchar(255) GENERATED ALWAYS AS (IF(deleted = 0, name, NULL)) STORED,
	`display_name` varchar(255),
	`order` int NOT NULL DEFAULT 0,
	`parent_id` int,
	`zones` text,
	`deleted` boolean NOT NULL DEFAULT false,
	`last_updated_by` int,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `content_pages_id` PRIMARY KEY(`id`),
	CONSTRAINT `content_pages_unique_name_per_chain` UNIQUE(`chain_id`,`active_name`)
);
--> statement-breakpoint
CREATE TABLE `currencies` (
	`id` int AUTO_INCREMENT NOT NULL,
	`code` char(3) NOT NULL,
	`name` varchar(64) NOT NULL,
	CONSTRAINT `currencies_id` PRIMARY KEY(`id`),
	CONSTRAINT `currencies_by_code` UNIQUE(`code`)
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`username` varchar(255) NOT NULL,
	`password_hash` varchar(255),
	`first_name` varchar(255),
	`last_name` varchar(255),
	`member_number` varchar(64),
	`active` boolean NOT NULL DEFAULT true,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `users_id` PRIMARY KEY(`id`),
	CONSTRAINT `users_unique_username_per_chain` UNIQUE(`chain_id`,`username`)
);
--> statement-breakpoint
CREATE TABLE `vouchers` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`key` char(64) NOT NULL,
	`type` varchar(255) NOT NULL,
	`status` varchar(16) NOT NULL,
	`campaign_id` int NOT NULL,
	`user_id` int NOT NULL,
	`creating_user_id` int,
	`currency_id` int,
	`basket_id` int,
	`generating_return_transaction_id` int,
	`parent_voucher_id` int,
	`redemption_exclusive_business_id` int,
	`task_id` int,
	`amount` double,
	`amount_redeemed` double,
	`discount_ratio` double,
	`basket_owner_code_exclusive` varchar(255),
	`description` varchar(4096),
	`notes` varchar(4096),
	`image_url` varchar(4096),
	`honour_code` varchar(255),
	`locking_code` varchar(255),
	`text` varchar(255),
	`title` varchar(255),
	`platform_discount_code` varchar(128),
	`platform_discount_code_id` varchar(128),
	`platform_price_rule_id` bigint,
	`third_party_id` bigint,
	`expiry_date` datetime,
	`locked_until` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`redeemed_date` datetime,
	`db_redeemed_date` datetime,
	`deleted` boolean NOT NULL DEFAULT false,
	`last_updated_by` int,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `vouchers_id` PRIMARY KEY(`id`),
	CONSTRAINT `vouchers_by_key` UNIQUE(`key`)
);
--> statement-breakpoint
ALTER TABLE `chains` ADD `allowed_business_formats` text;--> statement-breakpoint
ALTER TABLE `chains` ADD `allows_double_discounting` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `basket_campaign_require_barcode_assignment` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `basket_campaign_require_format_assignment` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `basket_campaign_require_region_or_store_assignment` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `basket_voucher_always_redeem_full_value_in_store` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `basket_voucher_always_redeem_full_value_online` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `business_group_enabled` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `calculate_basket_on_total_value_in_store` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `calculate_basket_on_total_value_online` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `chain_stores_user_signature` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `competition_win_rate_multiplier` double DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `currency_id` int;--> statement-breakpoint
ALTER TABLE `chains` ADD `dummy_email_domain` varchar(128);--> statement-breakpoint
ALTER TABLE `chains` ADD `email_address` varchar(255);--> statement-breakpoint
ALTER TABLE `chains` ADD `enrichment_enabled` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `exclude_rewards_on_basket_campaign_discounted_items` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `expired_vouchers_regenerate_on_return` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `first_transaction_sets_home_and_signup_store` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `geo_codes_user_address_info` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `wallet_issuer_id` varchar(128);--> statement-breakpoint
ALTER TABLE `chains` ADD `image_url` varchar(1024);--> statement-breakpoint
ALTER TABLE `chains` ADD `ip_whitelist_super_user_exemption` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `jwt_audience` varchar(255);--> statement-breakpoint
ALTER TABLE `chains` ADD `jwt_issuer` varchar(255);--> statement-breakpoint
ALTER TABLE `chains` ADD `jwt_jwks_url` varchar(512);--> statement-breakpoint
ALTER TABLE `chains` ADD `language` varchar(32);--> statement-breakpoint
ALTER TABLE `chains` ADD `non_payment_state` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `outlier_analysis_enabled` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `password_reset_url` varchar(1024);--> statement-breakpoint
ALTER TABLE `chains` ADD `phone_number` varchar(32);--> statement-breakpoint
ALTER TABLE `chains` ADD `receipt_logo_url` varchar(1024);--> statement-breakpoint
ALTER TABLE `chains` ADD `receipts_service_active` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `redeem_basket_voucher_on_negative_value_basket` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `regenerate_vouchers_on_partial_redemption` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `regenerated_rewards_redeem_immediately` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `require_unique_phone_number` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `restrict_campaign_enable` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `return_redeem_voucher_before_cash` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `use_custom_member_numbers` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `uses_third_party_voucher_id` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `uses_user_address_two_field_for_platform` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `verify_phone_numbers` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `last_updated_by` int;--> statement-breakpoint
CREATE INDEX `campaigns_by_chain` ON `campaigns` (`chain_id`,`id`);--> statement-breakpoint
CREATE INDEX `model_change_logs_by_model_created` ON `model_change_logs` (`chain_id`,`model_class`,`model_id`,`created_date`);--> statement-breakpoint
CREATE INDEX `model_change_logs_by_model_modified` ON `model_change_logs` (`chain_id`,`model_class`,`model_id`,`last_modified_date`);--> statement-breakpoint
CREATE INDEX `access_tokens_by_chain` ON `access_tokens` (`chain_id`,`created_date`);--> statement-breakpoint
CREATE INDEX `access_tokens_by_client` ON `access_tokens` (`service_client_id`);--> statement-breakpoint
CREATE INDEX `service_clients_by_chain` ON `service_clients` (`chain_id`,`id`);--> statement-breakpoint
CREATE INDEX `content_pages_children` ON `content_pages` (`chain_id`,`parent_id`);--> statement-breakpoint
CREATE INDEX `users_by_member_number` ON `users` (`chain_id`,`member_number`);--> statement-breakpoint
CREATE INDEX `vouchers_of_user` ON `vouchers` (`chain_id`,`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `vouchers_of_campaign` ON `vouchers` (`chain_id`,`campaign_id`);--> statement-breakpoint
CREATE INDEX `vouchers_list_by_created` ON `vouchers` (`chain_id`,`created_date`);