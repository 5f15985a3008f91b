/**
 * Chain in the Resources API (spec, "Chain (singular resource)", "Authentication": PUT/PATCH on
 * Chain need super-user access): `GET /resources/chain` (the chain of X-Service-Chain-ID) and
 * `GET|PUT|PATCH /resources/chain/{id}`, where {id} must be that chain (another id is 544 even
 * when the admin may see that chain: the header names the chain a request applies to). No POST,
 * DELETE or plural: the adapter offers none, so the engine answers 544.
 *
 * Property <-> column mapping is derived from the declaration (snake_case property = camelCase
 * drizzle column) except for the properties in SPECIAL; the module refuses to load when a declared
 * property has neither. PUT changes only the properties sent (see the declaration).
 *
 * Also exports `loadChainRecord`, the chain nested under a business or an allowed IP range.
 */
import { chainResource } from "@service/shared/resources/chain";
import { getTableColumns } from "drizzle-orm";
import { findChainView, findCurrency, updateChain, type ChainChanges, type ChainRow, type ChainView } from "../chains/repository.ts";
import { fromJsonText, toJsonText } from "../db/json-column.ts";
import { chains } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { liveIpRanges } from "../ip-ranges/repository.ts";
import { toRecord as ipRangeRecord } from "./allowed-ip-range.ts";
import type { ResourceAdapter } from "./engine.ts";
import type { ResourceRecord } from "./render.ts";
import type { ResourceScope } from "./scope.ts";
import type { WriteValues } from "./write.ts";

export { loadChainRecord } from "../chains/nested-record.ts";

const decl = chainResource;

/** Properties that are not a plain column of `chains` (rendered and written by hand below). */
const SPECIAL = new Set(["allowed_business_formats", "allowed_ip_ranges", "app", "authentication_point", "currency", "last_updated_by"]);

/** Level from which `allowed_ip_ranges` is rendered, so lower levels skip the query. */
const RANGES_LEVEL = decl.properties.get("allowed_ip_ranges")!.level;

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());

/** property name -> drizzle column key, for the plain columns */
const COLUMNS: ReadonlyMap<string, keyof ChainRow> = (() => {
  const columns = getTableColumns(chains);
  const map = new Map<string, keyof ChainRow>();
  for (const prop of decl.properties.values()) {
    if (SPECIAL.has(prop.name)) continue;
    const key = camel(prop.name);
    if (!(key in columns)) throw new Error(`chain.${prop.name}: no column ${key} in chains`);
    map.set(prop.name, key as keyof ChainRow);
  }
  return map;
})();

/** The Chain adapter of the engine: reads need read access, writes super_user. */
export const chainAdapter: ResourceAdapter = {
  declaration: decl,
  access: { update: "super_user" },
  putIsPatch: true,

  impliedTarget: (scope) => ({ property: "id", value: scope.chainId }),

  async findOne(scope, by) {
    if (by.property !== "id" || by.value !== scope.chainId) return null;
    const view = await findChainView(scope.db, scope.chainId);
    return view ? toRecord(scope, view) : null;
  },

  async update(scope, _target, values) {
    const changes = await toChanges(scope, values);
    if (!(await updateChain(scope.db, scope.chainId, { ...changes, lastUpdatedBy: scope.actorAdminId }, scope.now))) return null;
    const view = await findChainView(scope.db, scope.chainId);
    return view ? toRecord(scope, view) : null;
  },
};

/** A chain as a resource record; its live IP ranges are read only when the level shows them. */
async function toRecord(scope: ResourceScope, view: ChainView): Promise<ResourceRecord> {
  const { row, currency, appId } = view;
  const record: ResourceRecord = {};
  for (const [prop, key] of COLUMNS) record[prop] = row[key];
  record.allowed_business_formats = fromJsonText(row.allowedBusinessFormats);
  if (scope.level >= RANGES_LEVEL) {
    const ranges = await liveIpRanges(scope.db, row.id);
    record.allowed_ip_ranges = ranges.map((r) => ipRangeRecord(r, { id: row.id }));
  }
  record.app = appId === null ? null : { id: appId };
  // Authentication points are not modelled yet: no chain has one.
  record.authentication_point = null;
  record.currency = currency ? { id: currency.id, code: currency.code, name: currency.name } : null;
  record.last_updated_by = row.lastUpdatedBy === null ? null : { id: row.lastUpdatedBy };
  return record;
}

/**
 * Validated write values (W properties only: the engine refuses the rest) as column changes.
 * @throws ServiceError parameter_invalid (419) for a currency id that names no currency, or
 *   allowed_business_formats over 65535 bytes as JSON
 */
async function toChanges(scope: ResourceScope, values: WriteValues): Promise<ChainChanges> {
  const changes: Record<string, unknown> = {};
  for (const [prop, value] of Object.entries(values)) {
    const key = COLUMNS.get(prop);
    if (key) changes[key] = value;
  }
  if (values.allowed_business_formats !== undefined) {
    changes.allowedBusinessFormats = toJsonText(values.allowed_business_formats, "allowed_business_formats");
  }
  if (values.currency !== undefined) {
    const id = (values.currency as { id: number }).id;
    if (!(await findCurrency(scope.db, id))) throw new ServiceError("parameter_invalid", `currency: no currency with id ${id}.`);
    changes.currencyId = id;
  }
  return changes as ChainChanges;
}
