CREATE TABLE `service_authenticate_throttle` (
	`address_hash` char(64) NOT NULL,
	`failures` int unsigned NOT NULL DEFAULT 0,
	`window_started_at` datetime(3) NOT NULL,
	`locked_until` datetime(3),
	CONSTRAINT `service_authenticate_throttle_address_hash` PRIMARY KEY(`address_hash`)
);
--> statement-breakpoint
CREATE INDEX `service_authenticate_throttle_prune_by_window` ON `service_authenticate_throttle` (`window_started_at`);