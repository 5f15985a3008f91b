ALTER TABLE `outbox` ADD `ordering_key` varchar(128);--> statement-breakpoint
CREATE INDEX `outbox_ordering` ON `outbox` (`ordering_key`,`status`,`id`);