CREATE TABLE `transaction_marker` (
	`id` char(32) NOT NULL,
	`created_at` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `transaction_marker_id` PRIMARY KEY(`id`)
);
