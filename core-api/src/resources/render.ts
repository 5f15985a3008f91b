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

/** A renderer of one declaration at one level with one set of top-level omissions (see planOf). */
type Renderer = (record: ResourceRecord, opts: RenderOptions) => Record<string, unknown>;

/**
 * Renderers per declaration, omitted set and level, generated when first used (issue 12: a list
 * page rendered 25 records by walking every declared property's rules again, through keyed loads
 * and stores; an end-user's page, whose omissions are the declaration's static
 * `omitFor.end_user`, compiled one renderer per record). The inner key is `omissionKey`.
 */
const renderers = new WeakMap<ResourceDeclaration, Map<string, Renderer[]>>();

/** The omission key of each omitted set seen, so a caller's long-lived set is sorted once. */
const omissionKeys = new WeakMap<ReadonlySet<string>, string>();

let compilations = 0;

/**
 * How many renderers have been generated in this process (for tests: a repeated render must
 * reuse its renderer).
 * @returns a count, never decreasing
 */
export function rendererCompilations(): number {
  return compilations;
}

/** `omit` as a cache key: its names sorted and joined by NUL (a character no property name has); "" for none. */
function omissionKey(omit: ReadonlySet<string> | undefined): string {
  if (!omit?.size) return "";
  let key = omissionKeys.get(omit);
  if (key === undefined) omissionKeys.set(omit, (key = [...omit].sort().join("\0")));
  return key;
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

/**
 * The renderer of `props` at `level`, generated as straight-line code: for each property in
 * order, a value the record does not carry (undefined) is left out, null stays null, a Date is
 * formatted for the request's version, a reference (or a list of them) is rendered one level
 * down, anything else is the value itself.
 */
function compileRenderer(props: readonly PropertyInfo[], level: number): Renderer {
  const name = (key: string) => JSON.stringify(key);
  const lines = props.map((prop, i) => {
    const nested = prop.kind === "reference" || (prop.kind === "array" && prop.reference !== undefined);
    const value = nested ? `renderValue(p${i}, v, ${level}, opts)` : "v";
    return `v = record[${name(prop.name)}]; if (v !== undefined) out[${name(prop.name)}] = v === null ? null : v instanceof Date ? formatDateTime(v, opts.version) : ${value};`;
  });
  const body = `return function render(record, opts) {\n  const out = {};\n  let v;\n  ${lines.join("\n  ")}\n  return out;\n};`;
  compilations++;
  return new Function("renderValue", "formatDateTime", ...props.map((_, i) => `p${i}`), body)(renderValue, formatDateTime, ...props) as Renderer;
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
  // Odd levels never come from a request: those renderers are not kept.
  if (!Number.isInteger(level) || level < 0 || level > 8) {
    return compileRenderer(planOf(decl, level, opts.omit), level)(record, opts);
  }
  let byOmission = renderers.get(decl);
  if (!byOmission) renderers.set(decl, (byOmission = new Map()));
  const key = omissionKey(opts.omit);
  let byLevel = byOmission.get(key);
  if (!byLevel) byOmission.set(key, (byLevel = []));
  return (byLevel[level] ??= compileRenderer(planOf(decl, level, opts.omit), level))(record, opts);
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
