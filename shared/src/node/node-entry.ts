/**
 * The Node runtime entry of the shared package (`@service/shared/node`): what both services and
 * the scripts share beyond the contracts, and which needs Node's built-in modules (Deno provides
 * them too). The contracts entry (`@service/shared`) stays free of them.
 */
export * from "./request-deadline.ts";
export * from "./transaction-runner.ts";
