CREATE TABLE `outbox` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`delivery_id` char(36) NOT NULL,
	`chain_id` int NOT NULL,
	`kind` varchar(32) NOT NULL,
	`target_id` int,
	`event_type` varchar(64) NOT NULL,
	`payload` text NOT NULL,
	`status` varchar(16) NOT NULL DEFAULT 'pending',
	`attempts` int NOT NULL DEFAULT 0,
	`next_attempt_at` datetime(3) NOT NULL,
	`lease_token` char(32),
	`expires_at` datetime(3),
	`last_attempt_date` datetime,
	`last_status_code` int,
	`last_error` varchar(512),
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `outbox_id` PRIMARY KEY(`id`),
	CONSTRAINT `outbox_unique_delivery_id` UNIQUE(`delivery_id`)
);
--> statement-breakpoint
CREATE INDEX `outbox_due` ON `outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `outbox_by_chain` ON `outbox` (`chain_id`,`status`,`id`);