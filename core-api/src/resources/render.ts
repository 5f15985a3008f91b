/**
 * Level-based rendering of resources (spec, "Field-table notation" and "Common request headers":
 * response recursion; handbook, "recursion level").
 *
 * Rule: a property is included when its level <= the requested level and it is not write-only; a nested resource is
 * rendered at level - 1 with its own declaration; at level 0 a reference is `{"id": ...}`.
 * Datetimes are formatted per `X-Service-API-version`.
 */
import type { PropertyInfo, RecursionLevel, ResourceDeclaration } from "@service/shared/resources/meta";
import { formatDateTime, type ApiVersion } from "../http/api-version.ts";
import type { ResourceRecord } from "../db/resource-columns.ts";
import { ServiceError } from "../http/service-error.ts";

export type { ResourceRecord };

/** Default response level when the header is absent (handbook). */
export const DEFAULT_RECURSION_LEVEL: RecursionLevel = 2;

export interface RenderOptions {
  version: ApiVersion;
  /** declarations by resource name, for nested references */
  resources: ReadonlyMap<string, ResourceDeclaration>;
  /** properties to leave out at the top level (for example the end-user omissions) */
  omit?: ReadonlySet<string>;
}

/**
 * Reads `X-Service-Response-Recursion-Level`.
 * @returns the level 0-4, default 2 when absent
 * @throws ServiceError parameter_invalid (419) for any other value
 */
export function parseRecursionLevel(header: string | undefined | null): RecursionLevel {
  if (header === undefined || header === null || header.trim() === "") return DEFAULT_RECURSION_LEVEL;
  const s = header.trim();
  if (!/^[0-4]$/.test(s)) {
    throw new ServiceError("parameter_invalid", "X-Service-Response-Recursion-Level must be an integer from 0 to 4.");
  }
  return Number(s) as RecursionLevel;
}

/**
 * Renders `record` of resource `decl` at `level`.
 * @returns a plain JSON object with the properties of level <= `level`, in declaration order
 */
export function renderResource(
  decl: ResourceDeclaration,
  record: ResourceRecord,
  level: number,
  opts: RenderOptions,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const prop of decl.properties.values()) {
    // A write-only property (a secret) is never rendered, whatever the record holds.
    if (prop.level > level || prop.writeOnly || opts.omit?.has(prop.name)) continue;
    const value = record[prop.name];
    if (value === undefined) continue;
    out[prop.name] = renderValue(prop, value, level, opts);
  }
  return out;
}

function renderValue(prop: PropertyInfo, value: unknown, level: number, opts: RenderOptions): unknown {
  if (value === null) return null;
  if (value instanceof Date) return formatDateTime(value, opts.version);
  if (prop.kind === "reference") return renderReference(prop.reference, value, level - 1, opts);
  if (prop.kind === "array" && prop.reference && Array.isArray(value)) {
    return value.map((item) => renderReference(prop.reference, item, level - 1, opts));
  }
  return value;
}

/** A nested resource one level down; without a declaration (not built yet) only its id is known. */
function renderReference(name: string | undefined, value: unknown, level: number, opts: RenderOptions): unknown {
  if (value === null || typeof value !== "object") return value;
  const nested = value as ResourceRecord;
  const decl = name ? opts.resources.get(name) : undefined;
  if (level <= 0 || !decl) return { id: nested.id };
  return renderResource(decl, nested, level, { ...opts, omit: undefined });
}
