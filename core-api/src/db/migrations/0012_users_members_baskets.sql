CREATE TABLE `user_referrals` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`user_id` int NOT NULL,
	`referring_user_id` int NOT NULL,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `user_referrals_id` PRIMARY KEY(`id`),
	CONSTRAINT `user_referrals_one_per_user` UNIQUE(`user_id`)
);
--> statement-breakpoint
CREATE TABLE `member_number_ranges` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`kind` varchar(16) NOT NULL,
	`first` bigint unsigned NOT NULL,
	`last` bigint unsigned NOT NULL,
	`next_number` bigint unsigned NOT NULL,
	`deleted` boolean NOT NULL DEFAULT false,
	`last_updated_by` int,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `member_number_ranges_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `baskets` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`user_id` int NOT NULL,
	`branch_business_id` int,
	`basket_total_price` decimal(12,2) NOT NULL,
	`items` text,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `baskets_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
DROP INDEX `users_by_member_number` ON `users`;--> statement-breakpoint
ALTER TABLE `apps` ADD `kind` varchar(16) DEFAULT 'native_app' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `address_streetname` varchar(255);--> statement-breakpoint
ALTER TABLE `users` ADD `address_housenumber` varchar(64);--> statement-breakpoint
ALTER TABLE `users` ADD `address_housenumber_extension` varchar(64);--> statement-breakpoint
ALTER TABLE `users` ADD `address_line_2` varchar(255);--> statement-breakpoint
ALTER TABLE `users` ADD `address_line_3` varchar(255);--> statement-breakpoint
ALTER TABLE `users` ADD `address_postalcode` varchar(20);--> statement-breakpoint
ALTER TABLE `users` ADD `address_regionstate` varchar(255);--> statement-breakpoint
ALTER TABLE `users` ADD `address_towncity` varchar(255);--> statement-breakpoint
ALTER TABLE `users` ADD `affiliate_code` varchar(64);--> statement-breakpoint
ALTER TABLE `users` ADD `authentication_point_identifier` varchar(255);--> statement-breakpoint
ALTER TABLE `users` ADD `authentication_point_multi_id` int;--> statement-breakpoint
ALTER TABLE `users` ADD `auxiliary_identifier` varchar(255);--> statement-breakpoint
ALTER TABLE `users` ADD `birthday` date;--> statement-breakpoint
ALTER TABLE `users` ADD `country_code` char(2);--> statement-breakpoint
ALTER TABLE `users` ADD `gender` varchar(16);--> statement-breakpoint
ALTER TABLE `users` ADD `home_store_id` int;--> statement-breakpoint
ALTER TABLE `users` ADD `signup_store_id` int;--> statement-breakpoint
ALTER TABLE `users` ADD `is_employee` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `language` varchar(35);--> statement-breakpoint
ALTER TABLE `users` ADD `mailing_list_sub_offered` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `mailing_list_subscribed` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `printed_mailing_list_subscribed` boolean;--> statement-breakpoint
ALTER TABLE `users` ADD `opt_in_secondary` boolean;--> statement-breakpoint
ALTER TABLE `users` ADD `programme_opted_in` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `registered` boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `phone_number` varchar(32);--> statement-breakpoint
ALTER TABLE `users` ADD `phone_number_status` tinyint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `phone_number_duplicate` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `referral_code` char(8);--> statement-breakpoint
ALTER TABLE `users` ADD `signup_channel` varchar(64);--> statement-breakpoint
ALTER TABLE `users` ADD CONSTRAINT `users_unique_member_number_per_chain` UNIQUE(`chain_id`,`member_number`);--> statement-breakpoint
ALTER TABLE `users` ADD CONSTRAINT `users_unique_authentication_point_per_chain` UNIQUE(`chain_id`,`authentication_point_identifier`);--> statement-breakpoint
ALTER TABLE `users` ADD CONSTRAINT `users_unique_referral_code_per_chain` UNIQUE(`chain_id`,`referral_code`);--> statement-breakpoint
CREATE INDEX `user_referrals_by_referrer` ON `user_referrals` (`chain_id`,`referring_user_id`);--> statement-breakpoint
CREATE INDEX `member_number_ranges_by_chain` ON `member_number_ranges` (`chain_id`,`deleted`,`kind`,`first`);--> statement-breakpoint
CREATE INDEX `baskets_by_user` ON `baskets` (`chain_id`,`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `users_by_phone_number` ON `users` (`chain_id`,`phone_number`);