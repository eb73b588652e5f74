import { describe, expect, it } from "vitest";
import { clientIpBucket } from "../src/net/client-ip-bucket";

describe("clientIpBucket", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::FFFF:cb00:7107", "203.0.113.7"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:db8:0:0:ffff::1", "2001:db8:0:0::/64"],
    ["2001:0DB8:0000:0000:1234:5678:9abc:def0", "2001:db8:0:0::/64"],
    ["2001:db8:aa:bb:1:2:3:4", "2001:db8:aa:bb::/64"],
    ["::1", "0:0:0:0::/64"],
    ["2001:db8:aa:bb::10.0.0.1", "2001:db8:aa:bb::/64"],
    ["fe80::1%eth0", "fe80::1%eth0"],
    ["not an address", "not an address"],
  ])("%s counts as %s", (ip, bucket) => {
    expect(clientIpBucket(ip)).toBe(bucket);
  });

  it("puts two addresses of one /64 in one bucket and another /64 in another", () => {
    expect(clientIpBucket("2001:db8:1:2::a")).toBe(clientIpBucket("2001:db8:1:2:ffff:ffff:ffff:ffff"));
    expect(clientIpBucket("2001:db8:1:3::a")).not.toBe(clientIpBucket("2001:db8:1:2::a"));
  });
});
