CREATE TABLE `business_search_word_counts` (
	`chain_id` int NOT NULL,
	`field` tinyint NOT NULL,
	`token` varchar(64) NOT NULL,
	`lcp_prev` tinyint NOT NULL,
	`n` int NOT NULL,
	CONSTRAINT `business_search_word_counts_pk` PRIMARY KEY(`chain_id`,`field`,`token`,`lcp_prev`)
);
--> statement-breakpoint
-- Words compare byte for byte, as in business_search_tokens.
ALTER TABLE `business_search_word_counts` MODIFY `token` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL;--> statement-breakpoint
INSERT INTO `business_search_word_counts` (`chain_id`, `field`, `token`, `lcp_prev`, `n`)
SELECT `chain_id`, `field`, `token`, `lcp_prev`, COUNT(*) FROM `business_search_tokens`
GROUP BY `chain_id`, `field`, `token`, `lcp_prev`;
