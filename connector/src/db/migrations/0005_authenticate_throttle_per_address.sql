CREATE TABLE `service_authenticate_lockout` (
	`customer_id` int unsigned NOT NULL,
	`address_hash` char(64) NOT NULL,
	`failures` int unsigned NOT NULL DEFAULT 0,
	`window_started_at` datetime(3) NOT NULL,
	`locked_until` datetime(3),
	CONSTRAINT `service_authenticate_lockout_pk` PRIMARY KEY(`customer_id`,`address_hash`)
);
--> statement-breakpoint
CREATE INDEX `service_authenticate_lockout_prune_by_window` ON `service_authenticate_lockout` (`window_started_at`);