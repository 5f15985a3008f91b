/**
 * The content-page hierarchy rules (spec, "Content Page": a page cannot be its own parent or
 * create a cycle; deleting a page also deletes all descendant pages). Pure: the repository loads
 * the chain's live pages as `PageLink`s and asks here.
 */
import { ServiceError } from "../http/service-error.ts";

/** A live page as the hierarchy sees it. */
export interface PageLink {
  id: number;
  parentId: number | null;
}

/**
 * Checks that page `pageId` may take `parentId` as its parent.
 * @param pages the chain's live pages (with their current parents)
 * @param pageId the page being changed; undefined for a page being created (it has no
 *   descendants yet, so only the parent's existence matters and that is the caller's lookup)
 * @throws ServiceError parameter_invalid (419) when `parentId` is the page itself, or one of its
 *   descendants (the page would become its own ancestor)
 */
export function checkParent(pages: readonly PageLink[], pageId: number | undefined, parentId: number | null): void {
  if (pageId === undefined || parentId === null) return;
  if (parentId === pageId) throw ownParentError();
  const parentOf = new Map(pages.map((p) => [p.id, p.parentId]));
  const seen = new Set<number>();
  // Walk up from the new parent: meeting the page itself means the parent is its descendant.
  for (let at: number | null | undefined = parentId; at != null && !seen.has(at); at = parentOf.get(at)) {
    if (at === pageId) {
      throw new ServiceError("parameter_invalid", "parent: the parent is a descendant of this content page, which would form a cycle.");
    }
    seen.add(at);
  }
}

/** The error for a page named as its own parent: parameter_invalid (419). */
export function ownParentError(): ServiceError {
  return new ServiceError("parameter_invalid", "parent: a content page cannot be its own parent.");
}

/**
 * Every descendant of page `rootId` (children, their children, ...), without the page itself.
 * @returns ids in breadth-first order; a stored cycle (which checkParent prevents) cannot loop
 */
export function descendantsOf(pages: readonly PageLink[], rootId: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of pages) {
    if (p.parentId === null) continue;
    const list = children.get(p.parentId) ?? [];
    list.push(p.id);
    children.set(p.parentId, list);
  }
  const found: number[] = [];
  const seen = new Set<number>([rootId]);
  for (let queue = [rootId], i = 0; i < queue.length; i++) {
    for (const child of children.get(queue[i]!) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}
