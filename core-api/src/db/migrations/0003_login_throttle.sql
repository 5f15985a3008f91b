CREATE TABLE `login_throttle` (
	`key_hash` char(64) NOT NULL,
	`scope` varchar(16) NOT NULL,
	`failures` int NOT NULL DEFAULT 0,
	`window_started_at` datetime(3) NOT NULL,
	`locked_until` datetime(3),
	CONSTRAINT `login_throttle_key_hash` PRIMARY KEY(`key_hash`)
);
--> statement-breakpoint
CREATE INDEX `login_throttle_prune_by_window` ON `login_throttle` (`window_started_at`);