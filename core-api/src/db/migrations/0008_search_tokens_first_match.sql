DROP INDEX `business_search_tokens_by_word` ON `business_search_tokens`;--> statement-breakpoint
ALTER TABLE `business_search_tokens` ADD `lcp_prev` tinyint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Words are already folded to lower case without diacritics (businesses/text.ts); compare them
-- byte for byte, so that LIKE 'prefix%' means exactly "starts with" and the order is binary.
ALTER TABLE `business_search_tokens` MODIFY `token` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL;--> statement-breakpoint
-- lcp_prev of existing words: the common prefix length with the previous word of the same
-- business and field in binary order (the maximum over all earlier words, since they are sorted).
UPDATE `business_search_tokens` t
JOIN (
  SELECT w.`chain_id`, w.`field`, w.`token`, w.`business_id`,
    (WITH RECURSIVE n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n WHERE i < 64)
     SELECT COALESCE(MAX(i), 0) FROM n WHERE i <= LEAST(CHAR_LENGTH(w.`token`), CHAR_LENGTH(w.`prev`))
       AND LEFT(w.`token`, i) = LEFT(w.`prev`, i)) AS `lcp`
  FROM (
    SELECT `chain_id`, `field`, `token`, `business_id`,
      LAG(`token`) OVER (PARTITION BY `business_id`, `field` ORDER BY `token`) AS `prev`
    FROM `business_search_tokens`
  ) w
  WHERE w.`prev` IS NOT NULL
) p ON p.`chain_id` = t.`chain_id` AND p.`field` = t.`field` AND p.`token` = t.`token` AND p.`business_id` = t.`business_id`
SET t.`lcp_prev` = p.`lcp`;--> statement-breakpoint
CREATE INDEX `business_search_tokens_by_word` ON `business_search_tokens` (`chain_id`,`field`,`token`,`lcp_prev`);
