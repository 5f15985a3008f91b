CREATE TABLE `authentication_points` (
	`id` int AUTO_INCREMENT NOT NULL,
	`chain_id` int NOT NULL,
	`kind` varchar(16) NOT NULL DEFAULT 'webshop',
	`base_url` varchar(512) NOT NULL,
	`integration_token_sealed` varchar(1024) NOT NULL,
	`last_updated_by` int,
	`created_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	`last_modified_date` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
	CONSTRAINT `authentication_points_id` PRIMARY KEY(`id`),
	CONSTRAINT `authentication_points_one_per_chain` UNIQUE(`chain_id`)
);
