CREATE TABLE `business_geo_cell_counts` (
	`chain_id` int NOT NULL,
	`geo_cell` int NOT NULL,
	`n` int NOT NULL,
	CONSTRAINT `business_geo_cell_counts_pk` PRIMARY KEY(`chain_id`,`geo_cell`)
);
--> statement-breakpoint
INSERT INTO `business_geo_cell_counts` (`chain_id`, `geo_cell`, `n`)
SELECT `chain_id`, `geo_cell`, COUNT(*) FROM `businesses` WHERE `geo_cell` IS NOT NULL GROUP BY `chain_id`, `geo_cell`;
