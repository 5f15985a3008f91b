/**
 * Which fields apply to which voucher type: the shared discriminated union `voucherTypeRules`
 * applied to a whole voucher, its issues turned into the spec's errors. Pure.
 */
import { voucherTypeRules } from "@service/shared/resources/voucher";
import type { z } from "zod";
import { ServiceError } from "../http/service-error.ts";

/**
 * Checks a voucher as it will be stored against the rules of its type.
 * @param voucher API property name -> value: on POST the written values, on PUT / PATCH the stored
 *   voucher with the written values over it (type is immutable, so the stored type decides)
 * @throws ServiceError parameter_invalid (419) when a field does not apply to the type (it must be
 *   null or absent) or its value is out of range for the type (for example amount <= 0, or
 *   amount_redeemed over amount); parameter_missing (441) when a field the type needs is null or
 *   absent. A bad value is reported before a missing one, as in the engine's body validation.
 */
export function checkVoucherType(voucher: Record<string, unknown>): void {
  const res = voucherTypeRules.safeParse(voucher);
  if (res.success) return;
  const type = String(voucher.type);
  const described = res.error.issues.map((issue) => describe(issue, voucher, type));
  const first = described.find((d) => d.name === "parameter_invalid") ?? described[0]!;
  throw new ServiceError(first.name, first.text);
}

function describe(issue: z.core.$ZodIssue, voucher: Record<string, unknown>, type: string) {
  const field = String(issue.path[0] ?? "type");
  const value = voucher[field];
  if (issue.code === "invalid_type" && issue.expected !== "null" && (value === null || value === undefined)) {
    return { name: "parameter_missing" as const, text: `${field} is required for ${type} vouchers.` };
  }
  if (issue.code === "invalid_type" && issue.expected === "null") {
    return { name: "parameter_invalid" as const, text: `${field} does not apply to ${type} vouchers; send null or leave it out.` };
  }
  return { name: "parameter_invalid" as const, text: `${field}: ${issue.message} for ${type} vouchers.` };
}
