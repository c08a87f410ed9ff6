import { describe, expect, it } from "vitest";
import { createSessionCache } from "./session-cache.js";

const row = (userId: string, email = `${userId}@example.test`) => ({ userId, email });

function cache(opts: { ttlMs?: number; maxEntries?: number } = {}) {
  const clock = { t: 1_000 };
  const c = createSessionCache<ReturnType<typeof row>>({ now: () => clock.t, ...opts });
  c.setLive(true);
  return { c, clock };
}

describe("session cache", () => {
  it("keeps nothing until the invalidation channel is heard, and forgets everything when it is lost", () => {
    const c = createSessionCache<ReturnType<typeof row>>({ now: () => 0 });
    c.put("s1", row("u1"), c.generation());
    expect(c.get("s1")).toBeUndefined();
    c.setLive(true);
    c.put("s1", row("u1"), c.generation());
    expect(c.get("s1")).toEqual(row("u1"));
    c.setLive(false);
    expect(c.get("s1")).toBeUndefined();
    c.setLive(true);
    expect(c.get("s1")).toBeUndefined();
  });

  it("drops every session of a user named by a change, and only theirs", () => {
    const { c } = cache();
    c.put("a1", row("a"), c.generation());
    c.put("a2", row("a"), c.generation());
    c.put("b1", row("b"), c.generation());
    c.dropUser("a");
    expect(c.get("a1")).toBeUndefined();
    expect(c.get("a2")).toBeUndefined();
    expect(c.get("b1")).toEqual(row("b"));
    c.dropSession("b1");
    expect(c.get("b1")).toBeUndefined();
  });

  it("does not keep a row read before a change that was dropped while the read was under way", () => {
    const { c } = cache();
    const readStarted = c.generation();
    c.dropUser("a"); // the change commits and is heard while the old row is on its way back
    c.put("a1", row("a", "old@example.test"), readStarted);
    expect(c.get("a1")).toBeUndefined();
    const again = c.generation();
    c.put("a1", row("a", "new@example.test"), again);
    expect(c.get("a1")?.email).toBe("new@example.test");
  });

  it("reads a session again after the time to live, or when the clock goes back", () => {
    const { c, clock } = cache({ ttlMs: 60_000 });
    c.put("s", row("u"), c.generation());
    clock.t += 60_000;
    expect(c.get("s")).toEqual(row("u"));
    clock.t += 1;
    expect(c.get("s")).toBeUndefined();
    c.put("s", row("u"), c.generation());
    clock.t -= 5_000;
    expect(c.get("s")).toBeUndefined();
  });

  it("holds at most maxEntries, letting the oldest go", () => {
    const { c } = cache({ maxEntries: 2 });
    c.put("s1", row("u1"), c.generation());
    c.put("s2", row("u2"), c.generation());
    c.put("s3", row("u3"), c.generation());
    expect(c.size()).toBe(2);
    expect(c.get("s1")).toBeUndefined();
    expect(c.get("s3")).toEqual(row("u3"));
    // a user's index follows evictions: dropping u1 later touches nothing else
    c.dropUser("u1");
    expect(c.get("s2")).toEqual(row("u2"));
  });
});
