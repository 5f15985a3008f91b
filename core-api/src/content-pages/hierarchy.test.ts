import { describe, expect, it } from "vitest";
import { ServiceError } from "../http/service-error.ts";
import { checkParent, descendantsOf, type PageLink } from "./hierarchy.ts";

//   1           6
//  / \
// 2   3
//     |
//     4
//     |
//     5
const pages: PageLink[] = [
  { id: 1, parentId: null },
  { id: 2, parentId: 1 },
  { id: 3, parentId: 1 },
  { id: 4, parentId: 3 },
  { id: 5, parentId: 4 },
  { id: 6, parentId: null },
];

function errorOf(run: () => void): { name: string; status: number; message: string } | null {
  try {
    run();
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(ServiceError);
    const err = e as ServiceError;
    return { name: err.errorName, status: err.status, message: err.message };
  }
}

describe("checkParent", () => {
  it("accepts no parent, an unrelated page, an ancestor and a sibling", () => {
    expect(errorOf(() => checkParent(pages, 5, null))).toBeNull();
    expect(errorOf(() => checkParent(pages, 3, 6))).toBeNull();
    expect(errorOf(() => checkParent(pages, 5, 1))).toBeNull();
    expect(errorOf(() => checkParent(pages, 4, 2))).toBeNull();
    // a page being created has no descendants
    expect(errorOf(() => checkParent(pages, undefined, 5))).toBeNull();
  });

  it("refuses the page itself with 419 and says so", () => {
    expect(errorOf(() => checkParent(pages, 3, 3))).toEqual({
      name: "parameter_invalid",
      status: 400,
      message: "parent: a content page cannot be its own parent.",
    });
  });

  it("refuses a child or deeper descendant with 419: that would form a cycle", () => {
    for (const descendant of [3, 4, 5]) {
      expect(errorOf(() => checkParent(pages, 1, descendant))).toMatchObject({ name: "parameter_invalid", message: expect.stringContaining("cycle") });
    }
    expect(errorOf(() => checkParent(pages, 3, 5))).toMatchObject({ name: "parameter_invalid", message: expect.stringContaining("cycle") });
  });

  it("terminates on a stored cycle it did not create", () => {
    const looped: PageLink[] = [
      { id: 10, parentId: 11 },
      { id: 11, parentId: 10 },
    ];
    expect(errorOf(() => checkParent(looped, 12, 10))).toBeNull();
  });
});

describe("descendantsOf", () => {
  it("lists children, grandchildren and deeper, breadth first, without the page itself", () => {
    expect(descendantsOf(pages, 1)).toEqual([2, 3, 4, 5]);
    expect(descendantsOf(pages, 3)).toEqual([4, 5]);
    expect(descendantsOf(pages, 5)).toEqual([]);
    expect(descendantsOf(pages, 6)).toEqual([]);
  });

  it("terminates on a stored cycle", () => {
    const looped: PageLink[] = [
      { id: 10, parentId: 11 },
      { id: 11, parentId: 10 },
    ];
    expect(descendantsOf(looped, 10)).toEqual([11]);
  });
});
