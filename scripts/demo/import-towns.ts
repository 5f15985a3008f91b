/**
 * Demo step 1: one store for every town, added through the internal call `add-business` sent
 * form-encoded, as the older clients of that call do (spec, "Internal call: add-business").
 */
import cliProgress from "cli-progress";
import type { CoreApiClient } from "../lib/http-client.ts";
import { runPool } from "../lib/pool.ts";
import type { Town } from "../lib/towns.ts";

/** Owner-code prefix of the demo's town stores; reruns update them (update_if_exists). */
export const TOWN_OWNER_CODE_PREFIX = "TOWN-";

/** The owner code of the demo store of `town`: `TOWN-<country>-<GeoNames id>`. */
export function townOwnerCode(town: Town): string {
  return `${TOWN_OWNER_CODE_PREFIX}${town.country}-${town.id}`;
}

export interface ImportSummary {
  added: number;
  failed: number;
  seconds: number;
  /** the first few failures, for the report */
  errors: string[];
}

/**
 * Adds (or, on a rerun, updates) one business per town on chain `chainId`, showing a progress bar.
 * @param concurrency add-business calls in flight (default 8)
 */
export async function importTowns(
  core: CoreApiClient,
  chainId: number,
  towns: readonly Town[],
  concurrency = 8,
): Promise<ImportSummary> {
  const bar = new cliProgress.SingleBar(
    {
      format: "  add-business {bar} {percentage}% | {value}/{total} stores | {rate}/s | ETA {eta}s",
      noTTYOutput: true,
      notTTYSchedule: 3000,
      etaBuffer: 200,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  bar.start(towns.length, 0, { rate: 0 });
  let done = 0;
  const failures = await runPool(
    towns,
    concurrency,
    async (town) => {
      await core.sendForm("POST", "/internal/add-business", {
        chain_id: chainId,
        name: `Demo Market ${town.name}`,
        owner_code: townOwnerCode(town),
        towncity: town.name,
        countrycode: town.country,
        latitude: town.latitude,
        longitude: town.longitude,
        update_if_exists: "true",
      });
    },
    () => {
      done++;
      const rate = Math.round(done / ((performance.now() - started) / 1000));
      bar.update(done, { rate });
    },
  );
  bar.stop();
  return {
    added: towns.length - failures.length,
    failed: failures.length,
    seconds: (performance.now() - started) / 1000,
    errors: failures.slice(0, 5).map((f) => `${(f.item as Town).name}: ${(f.error as Error).message}`),
  };
}
