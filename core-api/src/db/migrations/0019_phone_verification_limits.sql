CREATE TABLE `phone_verification_counters` (
	`chain_id` int NOT NULL,
	`scope` varchar(16) NOT NULL,
	`subject` varchar(32) NOT NULL,
	`count` int NOT NULL DEFAULT 0,
	`window_started_at` datetime(3) NOT NULL,
	`last_counted_at` datetime(3),
	CONSTRAINT `phone_verification_counters_key` PRIMARY KEY(`chain_id`,`scope`,`subject`)
);
--> statement-breakpoint
ALTER TABLE `chains` ADD `phone_verification_send_interval_seconds` int DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `phone_verification_sends_per_user` int DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `phone_verification_sends_per_number` int DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `phone_verification_sends_per_chain` int DEFAULT 1000 NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `phone_verification_attempts_per_user` int DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `phone_verification_attempts_per_number` int DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE `chains` ADD `phone_verification_limit_window_seconds` int DEFAULT 3600 NOT NULL;--> statement-breakpoint
CREATE INDEX `phone_verification_counters_prune` ON `phone_verification_counters` (`chain_id`,`window_started_at`);