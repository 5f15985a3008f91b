-- The location grid went from 0.1 to 0.02 degree cells (businesses/geo.ts): recompute every
-- stored cell with the same arithmetic (row-major, 18000 columns), and give the word index the
-- coordinates it now carries.
UPDATE `businesses`
SET `geo_cell` = LEAST(8999, GREATEST(0, FLOOR((`latitude` + 90) / 2e-2))) * 18000
               + MOD(MOD(FLOOR((`longitude` + 180) / 2e-2), 18000) + 18000, 18000)
WHERE `geo_cell` IS NOT NULL AND `latitude` IS NOT NULL AND `longitude` IS NOT NULL;
--> statement-breakpoint
UPDATE `business_search_tokens` t JOIN `businesses` b ON b.`id` = t.`business_id`
SET t.`latitude` = b.`latitude`, t.`longitude` = b.`longitude`;
