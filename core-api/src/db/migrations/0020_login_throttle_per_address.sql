CREATE TABLE `login_known_address` (
	`key_hash` char(64) NOT NULL,
	`known_until` datetime(3) NOT NULL,
	CONSTRAINT `login_known_address_key_hash` PRIMARY KEY(`key_hash`)
);
--> statement-breakpoint
CREATE INDEX `login_known_address_prune_by_expiry` ON `login_known_address` (`known_until`);