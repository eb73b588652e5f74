import { describe, expect, it } from "vitest";
import { createCredentialCache } from "../src/identity/auth/credential-cache";

const live = () => {
  const cache = createCredentialCache<string>({ maxAgeMs: 1000, maxEntries: 3 });
  cache.setLive(true);
  return cache;
};

describe("credential cache", () => {
  it("serves nothing until live, and starts empty whenever the feed goes down or comes back", () => {
    const cache = createCredentialCache<string>({ maxAgeMs: 1000, maxEntries: 3 });
    cache.set("k", "u", "v", cache.ticket());
    expect(cache.get("k")).toBeUndefined();
    cache.setLive(true);
    cache.set("k", "u", "v", cache.ticket());
    expect(cache.get("k")).toBe("v");
    cache.setLive(false);
    expect(cache.get("k")).toBeUndefined();
    cache.setLive(true);
    expect(cache.get("k")).toBeUndefined();
  });

  it("drops every entry of a user whose credentials changed, and only theirs", () => {
    const cache = live();
    cache.set("key-a", "alice", "a", cache.ticket());
    cache.set("session-a", "alice", "s", cache.ticket());
    cache.set("key-b", "bob", "b", cache.ticket());
    cache.dropUser("alice");
    expect([cache.get("key-a"), cache.get("session-a"), cache.get("key-b")]).toEqual([undefined, undefined, "b"]);
  });

  it("does not keep what a read found when its user changed while the read was under way", () => {
    const cache = live();
    const ticket = cache.ticket(); // the read starts
    cache.dropUser("alice"); // a revocation commits and is announced, with nothing cached yet
    cache.set("key-a", "alice", "stale", ticket); // the read, begun before, ends
    expect(cache.get("key-a")).toBeUndefined();
    cache.set("key-a", "alice", "fresh", cache.ticket());
    expect(cache.get("key-a")).toBe("fresh");
  });

  it("does not keep a read begun before the feed came back", () => {
    const cache = createCredentialCache<string>({ maxAgeMs: 1000, maxEntries: 3 });
    const ticket = cache.ticket();
    cache.setLive(true);
    cache.set("k", "u", "v", ticket);
    expect(cache.get("k")).toBeUndefined();
  });

  it("forgets entries past their age and the oldest when full; update keeps the age", () => {
    const cache = live();
    cache.set("a", "u1", "1", cache.ticket(), 0);
    cache.set("b", "u2", "2", cache.ticket(), 500);
    cache.update("a", "1b");
    expect(cache.get("a", 900)).toBe("1b");
    expect(cache.get("a", 1001)).toBeUndefined();
    cache.set("c", "u3", "3", cache.ticket(), 600);
    cache.set("d", "u4", "4", cache.ticket(), 700);
    cache.set("e", "u5", "5", cache.ticket(), 800);
    expect(cache.size).toBe(3);
    expect(cache.get("b", 900)).toBeUndefined();
    expect(cache.get("e", 900)).toBe("5");
  });
});
