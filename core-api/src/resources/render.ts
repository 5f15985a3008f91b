/**
 * Level-based rendering of resources (spec, "Field-table notation" and "Common request headers":
 * response recursion; handbook, "recursion level"), for one caller (resources/read-view.ts).
 *
 * Rule: a property is included when its level <= the requested level, it is not write-only and
 * the caller's view does not omit it; a nested resource is rendered at level - 1 with its own
 * declaration, under the same view (the omissions of a direct GET apply to it too), when the
 * caller may GET it directly; otherwise, and at level 0, a reference is `{"id": ...}`.
 * Datetimes are formatted per `X-Service-API-version`.
 */
import type { PropertyInfo, RecursionLevel, ResourceDeclaration } from "@service/shared/resources/meta";
import { formatDateTime, type ApiVersion } from "../http/api-version.ts";
import type { ResourceRecord } from "../db/resource-columns.ts";
import { ServiceError } from "../http/service-error.ts";
import { FULL_VIEW, OWNER_PROPERTY, type ReadView } from "./read-view.ts";

export type { ResourceRecord };

/** Default response level when the header is absent (handbook). */
export const DEFAULT_RECURSION_LEVEL: RecursionLevel = 2;

export interface RenderOptions {
  version: ApiVersion;
  /** declarations by resource name, for nested references */
  resources: ReadonlyMap<string, ResourceDeclaration>;
  /** what the caller may see, at every level (resources/read-view.ts); absent: everything (FULL_VIEW) */
  view?: ReadView;
  /** the shopper whose own records a view reading "own" shows in full (OWNER_PROPERTY); absent or null: none */
  userId?: number | null;
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

/** A renderer of one declaration at one level for one view (see planOf). */
type Renderer = (record: ResourceRecord, opts: RenderOptions) => Record<string, unknown>;

/**
 * Renderers per declaration, view and level, built when first used: each decides once, per
 * property, how its value is rendered (valueRenderer), so no rule is walked again per record.
 * The inner key is the view's key: views are interned (read-view.ts), so a caller kind builds its
 * renderers once, and the admin's do not carry the checks a shopper's need.
 */
const renderers = new WeakMap<ResourceDeclaration, Map<string, Renderer[]>>();

let compilations = 0;

/**
 * How many renderers have been built in this process (for tests: a repeated render must reuse
 * its renderer).
 * @returns a count, never decreasing
 */
export function rendererCompilations(): number {
  return compilations;
}

/** The properties rendered at `level`, less `omit`: level <= `level`, not write-only, in declaration order. */
function planOf(decl: ResourceDeclaration, level: number, omit: ReadonlySet<string> | undefined): PropertyInfo[] {
  const props: PropertyInfo[] = [];
  for (const prop of decl.properties.values()) {
    // A write-only property (a secret) is never rendered, whatever the record holds.
    if (prop.level > level || prop.writeOnly || omit?.has(prop.name)) continue;
    props.push(prop);
  }
  return props;
}

/** How one non-null, non-Date value of a property is rendered. */
type ValueRenderer = (value: unknown, opts: RenderOptions) => unknown;

const AS_IS: ValueRenderer = (v) => v;

/**
 * How the values of `prop` at `level` are rendered for `view`: a plain value is itself; a
 * reference (or a list of them) to a resource the view reads "none" of is its `{id}` (decided
 * here, once, so no check runs per record); one read "own" is checked per record; anything else
 * is rendered one level down.
 */
function valueRenderer(prop: PropertyInfo, level: number, view: ReadView): ValueRenderer {
  const isArray = prop.kind === "array" && prop.reference !== undefined;
  if (prop.kind !== "reference" && !isArray) return AS_IS;
  const reading = view.reading(prop.reference!);
  if (reading === "none") return isArray ? referenceIds : referenceId;
  if (reading === "own") return (v, opts) => renderOwned(prop, v, level, opts);
  return (v, opts) => renderValue(prop, v, level, opts);
}

/**
 * The renderer of `props` at `level` for `view`: for each property in order, a value the record
 * does not carry (undefined) is left out, null stays null, a Date is formatted for the request's
 * version, anything else as valueRenderer says.
 */
function buildRenderer(props: readonly PropertyInfo[], level: number, view: ReadView): Renderer {
  const names = props.map((p) => p.name);
  const values = props.map((p) => valueRenderer(p, level, view));
  compilations++;
  return (record, opts) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const v = record[name];
      if (v === undefined) continue;
      out[name] = v === null ? null : v instanceof Date ? formatDateTime(v, opts.version) : values[i]!(v, opts);
    }
    return out;
  };
}

/**
 * Renders `record` of resource `decl` at `level`, for the view in `opts` (default FULL_VIEW).
 * @returns a plain JSON object with the properties of level <= `level` the view shows, in declaration order
 */
export function renderResource(
  decl: ResourceDeclaration,
  record: ResourceRecord,
  level: number,
  opts: RenderOptions,
): Record<string, unknown> {
  const view = opts.view ?? FULL_VIEW;
  // Odd levels never come from a request: those renderers are not kept.
  if (!Number.isInteger(level) || level < 0 || level > 8) {
    return buildRenderer(planOf(decl, level, view.omitted(decl)), level, view)(record, opts);
  }
  let byView = renderers.get(decl);
  if (!byView) renderers.set(decl, (byView = new Map()));
  let byLevel = byView.get(view.key);
  if (!byLevel) byView.set(view.key, (byLevel = []));
  return (byLevel[level] ??= buildRenderer(planOf(decl, level, view.omitted(decl)), level, view))(record, opts);
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
  return renderResource(decl, nested, level, opts);
}

/** A reference to a resource the caller reads only its own of: rendered when it is theirs, else its `{id}`. */
function renderOwned(prop: PropertyInfo, value: unknown, level: number, opts: RenderOptions): unknown {
  const owner = OWNER_PROPERTY[prop.reference!]!;
  const one = (item: unknown) => {
    const ownedBy = item !== null && typeof item === "object" ? (item as ResourceRecord)[owner] : undefined;
    const mine = opts.userId != null && (ownedBy as { id?: unknown } | null | undefined)?.id === opts.userId;
    return mine ? renderReference(prop.reference, item, level - 1, opts) : referenceId(item);
  };
  return prop.kind === "reference" ? one(value) : Array.isArray(value) ? value.map(one) : value;
}

/** A reference as its bare `{id}` (a value that is no object is left as it is). */
function referenceId(value: unknown): unknown {
  return value === null || typeof value !== "object" ? value : { id: (value as ResourceRecord).id };
}

/** A list of references as their bare `{id}`s (a value that is no list is left as it is). */
function referenceIds(value: unknown): unknown {
  return Array.isArray(value) ? value.map(referenceId) : value;
}
