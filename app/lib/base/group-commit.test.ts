import { describe, expect, it } from "vitest";
import { groupCommit } from "./group-commit";

/** A write the test finishes by hand, recording the groups it was given. */
function controlledWrite() {
  const groups: number[][] = [];
  const pending: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  const write = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      groups.push(items);
      pending.push({ resolve, reject });
    });
  return { groups, pending, write };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("groupCommit", () => {
  it("writes a lone item at once, and groups the items that arrive while a write is in progress", async () => {
    const { groups, pending, write } = controlledWrite();
    const commit = groupCommit(write);
    const done: number[] = [];
    const first = commit(1).then(() => done.push(1));
    await settled();
    expect(groups).toEqual([[1]]);
    const rest = [2, 3, 4].map((item) => commit(item).then(() => done.push(item)));
    await settled();
    // Nothing of the second group is written, or reported written, before the first write ends.
    expect(groups).toEqual([[1]]);
    expect(done).toEqual([]);
    pending[0]!.resolve();
    await first;
    await settled();
    expect(done).toEqual([1]);
    expect(groups).toEqual([[1], [2, 3, 4]]);
    pending[1]!.resolve();
    await Promise.all(rest);
    expect(done).toEqual([1, 2, 3, 4]);
  });

  it("rejects every item of a failed write, and only those; the next items are written", async () => {
    const { groups, pending, write } = controlledWrite();
    const commit = groupCommit(write);
    const a = commit(1);
    await settled();
    const b = commit(2);
    const c = commit(3);
    pending[0]!.reject(new Error("disco lleno"));
    await expect(a).rejects.toThrow("disco lleno");
    await settled();
    expect(groups).toEqual([[1], [2, 3]]);
    pending[1]!.resolve();
    await expect(Promise.all([b, c])).resolves.toEqual([undefined, undefined]);
    // Idle again: the next item starts a write of its own at once.
    const d = commit(4);
    await settled();
    expect(groups.at(-1)).toEqual([4]);
    pending[2]!.resolve();
    await d;
  });
});
