/**
 * Every declared resource by name: the engine resolves references (`x-service-reference`)
 * through this map, and the schema document will list it.
 */
import { businessResource } from "./business.ts";
import { chainResource } from "./chain.ts";
import type { ResourceDeclaration } from "./meta.ts";

export * from "./meta.ts";
export { businessResource, type Business } from "./business.ts";
export { chainResource, type Chain } from "./chain.ts";

export const RESOURCES: ReadonlyMap<string, ResourceDeclaration> = new Map<string, ResourceDeclaration>([
  [businessResource.name, businessResource as unknown as ResourceDeclaration],
  [chainResource.name, chainResource as unknown as ResourceDeclaration],
]);
