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

/** How one property of a plan is rendered. */
interface RenderStep {
  name: string;
  prop: PropertyInfo;
  /** a plain value: anything but a Date passes as it is */
  plain: boolean;
}

/**
 * The properties rendered at one level without omissions, per declaration, in declaration order
 * (issue 12: a list page rendered 25 records by walking every declared property's rules again).
 */
const plans = new WeakMap<ResourceDeclaration, RenderStep[][]>();

/** The steps of `decl` at `level`, less `omit`: the properties of level <= `level` that are not write-only. */
function planOf(decl: ResourceDeclaration, level: number, omit: ReadonlySet<string> | undefined): RenderStep[] {
  const make = () => {
    const steps: RenderStep[] = [];
    for (const prop of decl.properties.values()) {
      // A write-only property (a secret) is never rendered, whatever the record holds.
      if (prop.level > level || prop.writeOnly || omit?.has(prop.name)) continue;
      const plain = prop.kind !== "reference" && !(prop.kind === "array" && prop.reference !== undefined);
      steps.push({ name: prop.name, prop, plain });
    }
    return steps;
  };
  // Omissions (an end-user's) are rare: those plans are not kept.
  if (omit?.size || !Number.isInteger(level) || level < 0 || level > 8) return make();
  let byLevel = plans.get(decl);
  if (!byLevel) plans.set(decl, (byLevel = []));
  return (byLevel[level] ??= make());
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
  for (const step of planOf(decl, level, opts.omit)) {
    const value = record[step.name];
    if (value === undefined) continue;
    out[step.name] = value === null ? null
      : value instanceof Date ? formatDateTime(value, opts.version)
      : step.plain ? value
      : renderValue(step.prop, value, level, opts);
  }
  return out;
}

function renderValue(prop: PropertyInfo, value: unknown, level: number, opts: RenderOptions): unknown {
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
  return renderResource(decl, nested, level, opts.omit ? { ...opts, omit: undefined } : opts);
}
