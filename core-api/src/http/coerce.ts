/**
 * The one reader of internal-call parameters: reads, coerces and validates a call's parameters
 * with its shared declaration (`@service/shared/internal/call`), so a call's handler reads as its
 * declaration: `readCallParams(getCampaignCall, params, ["campaign_id"])`.
 *
 * For each parameter, in declaration order:
 * - its value is the one under its own name, else under the first alias sent; every name sent is
 *   validated;
 * - absent: the declared default, else left out; a required parameter absent or empty is refused
 *   with its `missing` error;
 * - empty (text that is blank once trimmed, or JSON null): null where the parameter is nullable
 *   (clears a field), absent for a number or boolean, else refused with its `format` error;
 * - text (form, query or a JSON string) of an integer, number or boolean parameter is read by the
 *   one rule of `@service/shared/text-values` (so `"52.1"`, `"yes"`, `"007"` are read; `1e309` is not);
 * - the value is then checked with the parameter's schema; a value of another JSON type (an array
 *   for a number, an object for a text, a number for a boolean) is refused with its `type` error,
 *   and every other failure with the error of its kind (`length`, `format`, `range`).
 * Unknown parameters are ignored (handbook: the internal calls are the older API). Nothing is
 * written by a handler before its parameters are read, so a refusal writes nothing.
 */
import type { ErrorName } from "@service/shared";
import type { CallDeclaration, CallParam, CallValues, Refusal } from "@service/shared/internal/call";
import { parseText } from "@service/shared/text-values";
import type { ParamValue, Params } from "./params.ts";
import { ServiceError } from "./service-error.ts";

/** A parameter sent without a value: the caller treats it as not sent. */
const ABSENT = Symbol("absent");

const TYPE_WORDS: Record<CallParam["kind"], string> = {
  string: "text",
  integer: "an integer",
  number: "a decimal number",
  boolean: "a boolean (true or false)",
  object: "an object",
};

/**
 * Requires every required parameter of `call` (of `names`, default all) to be present and not
 * empty, in declaration order.
 * @throws ServiceError the `missing` error of the first one absent or empty (for example 3
 *   http_vars_missing, 245 campaign_id_not_present, 441 parameter_missing)
 */
export function requireParams(call: CallDeclaration, params: Params, names?: readonly string[]): void {
  for (const p of selected(call, names)) {
    if (!p.required) continue;
    const given = [p.name, ...p.aliases].some((key) => params[key] !== undefined && !isEmpty(params[key]));
    if (!given) throw new ServiceError(p.errors.missing!, `${p.name} is required.`);
  }
}

/**
 * Reads the parameters `names` (default every parameter) of `call` from `params`, in declaration
 * order, after requiring the required ones among them (see the module comment for the rules).
 * @param params the request's parameters (http/params.ts: query and body, nested)
 * @param opts.present false: a required parameter that is absent is left out instead of refused
 *   (for a caller that has run requireParams already; an empty one is still refused)
 * @returns the values of the parameters given or defaulted; others are left out
 * @throws ServiceError the declared error of the first refusal: `missing`, `type`, `length`,
 *   `format` or `range` of that parameter
 */
export function readCallParams<C extends CallDeclaration, K extends keyof CallValues<C> & string = keyof CallValues<C> & string>(
  call: C,
  params: Params,
  names?: readonly K[],
  opts: { present?: boolean } = {},
): Pick<CallValues<C>, K> {
  if (opts.present !== false) requireParams(call, params, names);
  const out: Record<string, unknown> = {};
  for (const p of selected(call, names)) {
    const keys = [p.name, ...p.aliases].filter((key) => params[key] !== undefined);
    const values = keys.map((key) => readParam(p, key, params[key]!)).filter((v) => v !== ABSENT);
    if (values.length > 0) {
      out[p.name] = values[0];
      continue;
    }
    const absent = absentValue(p);
    if (absent !== undefined) out[p.name] = absent;
  }
  return out as Pick<CallValues<C>, K>;
}

function selected(call: CallDeclaration, names: readonly string[] | undefined): CallParam[] {
  let lists = selections.get(call);
  if (!lists) selections.set(call, (lists = new Map()));
  const key = names ? names.join("\u0000") : ALL;
  let list = lists.get(key);
  if (!list) {
    if (names) for (const name of names) if (!call.parameters.has(name)) throw new Error(`${call.name} declares no parameter ${name}`);
    list = names ? [...call.parameters.values()].filter((p) => names.includes(p.name)) : [...call.parameters.values()];
    lists.set(key, list);
  }
  return list;
}

/** The parameter lists `selected` made, per call and names (a declaration never changes once loaded). */
const selections = new WeakMap<CallDeclaration, Map<string, CallParam[]>>();
const ALL = "\u0001all";

/**
 * What the schema makes of an absent parameter (its default; undefined for none), parsed once per
 * parameter when it is a plain value (an object default is parsed per request: a handler may change it).
 */
const absentValues = new WeakMap<CallParam, { value: unknown }>();

function absentValue(p: CallParam): unknown {
  const known = absentValues.get(p);
  if (known) return known.value;
  const parsed = p.schema.safeParse(undefined);
  const value = parsed.success ? parsed.data : undefined;
  if (value === null || typeof value !== "object") absentValues.set(p, { value });
  return value;
}

function isEmpty(value: ParamValue): boolean {
  return value === null || (typeof value === "string" && value.trim() === "");
}

/** One value of `p` sent under `key` (its name or an alias), checked. */
function readParam(p: CallParam, key: string, raw: ParamValue): unknown {
  let value: unknown = raw;
  if (isEmpty(raw)) {
    if (p.required) throw new ServiceError(p.errors.missing!, `${key} is required.`);
    if (p.nullable) value = null;
    else if (p.kind === "integer" || p.kind === "number" || p.kind === "boolean") return ABSENT;
    else throw refusal(p, "format", `${key} cannot be empty.`);
  } else if (typeof raw === "string" && (p.kind === "integer" || p.kind === "number" || p.kind === "boolean")) {
    // Text that is not of the kind stays text, so the schema reports the wrong type.
    value = parseText(p.kind, raw) ?? raw;
  }
  const res = p.schema.safeParse(value);
  if (res.success) return res.data;
  const issue = res.error.issues[0]!;
  const kind = refusalOf(issue);
  const at = [key, ...issue.path.map(String)].join(".");
  throw refusal(p, kind, kind === "type" && issue.path.length === 0 ? `${at} must be ${TYPE_WORDS[p.kind]}.` : `${at}: ${issue.message}.`);
}

function refusal(p: CallParam, kind: Refusal, description: string): ServiceError {
  const name: ErrorName = p.errors[kind] ?? p.errors.type;
  return new ServiceError(name, description);
}

/** The kind of refusal a zod issue is (see call.ts for the kinds). */
function refusalOf(issue: { code: string; origin?: unknown; params?: unknown }): Refusal {
  switch (issue.code) {
    case "invalid_type":
    case "invalid_union":
      return "type";
    case "too_big":
    case "too_small":
      return issue.origin === "string" || issue.origin === "array" ? "length" : "range";
    case "custom": {
      const declared = (issue.params as { refusal?: Refusal } | undefined)?.refusal;
      return declared ?? "format";
    }
    default:
      return "format";
  }
}
