import { describe, expect, it } from "vitest";
import { addressRefusal, classifyAddress } from "../../src/net/address-classes";

const kindOf = (address: string) => classifyAddress(address).kind;

describe("address classification", () => {
  it.each([
    // IPv4
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["127.0.0.1", "private"],
    ["127.255.255.254", "private"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["100.127.255.255", "private"],
    ["198.18.0.1", "private"],
    ["169.254.169.254", "forbidden"],
    ["169.254.1.1", "forbidden"],
    ["169.254.170.2", "forbidden"],
    ["100.100.100.200", "forbidden"],
    ["0.0.0.0", "forbidden"],
    ["0.1.2.3", "forbidden"],
    ["224.0.0.1", "forbidden"],
    ["239.255.255.250", "forbidden"],
    ["255.255.255.255", "forbidden"],
    ["240.0.0.1", "forbidden"],
    ["192.0.2.1", "forbidden"],
    ["198.51.100.1", "forbidden"],
    ["203.0.113.1", "forbidden"],
    ["192.0.0.8", "forbidden"],
    // IPv6
    ["2606:4700:4700::1111", "public"],
    ["2001:4860:4860::8888", "public"],
    ["::1", "private"],
    ["0:0:0:0:0:0:0:1", "private"],
    ["fd00::1", "private"],
    ["fc00::1", "private"],
    ["fd12:3456:789a::1", "private"],
    ["fd00:ec2::254", "forbidden"],
    ["::", "forbidden"],
    ["fe80::1", "forbidden"],
    ["febf::1", "forbidden"],
    ["fec0::1", "forbidden"],
    ["ff02::1", "forbidden"],
    ["2001:db8::1", "forbidden"],
    ["2001::1", "forbidden"],
    ["100::1", "forbidden"],
    ["::7f00:1", "forbidden"],
    // IPv4 inside IPv6: classified as the IPv4 address they reach
    ["::ffff:127.0.0.1", "private"],
    ["::ffff:7f00:1", "private"],
    ["::FFFF:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "forbidden"],
    ["::ffff:a9fe:a9fe", "forbidden"],
    ["0:0:0:0:0:ffff:8.8.8.8", "public"],
    ["::ffff:0.0.0.0", "forbidden"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b::a9fe:a9fe", "forbidden"],
    ["64:ff9b::8.8.8.8", "public"],
    ["2002:7f00:1::", "private"],
    ["2002:a9fe:a9fe::1", "forbidden"],
    ["2002:808:808::1", "public"],
    // Not an address at all: refused
    ["fe80::1%eth0", "forbidden"],
    ["not-an-ip", "forbidden"],
    ["", "forbidden"],
  ])("%s is %s", (address, kind) => {
    expect(kindOf(address)).toBe(kind);
  });

  it("names why an address is refused, and lets private ones through only when allowed", () => {
    expect(classifyAddress("169.254.169.254")).toEqual({ kind: "forbidden", reason: "cloud metadata" });
    expect(classifyAddress("::ffff:127.0.0.1")).toEqual({ kind: "private", reason: "loopback" });
    expect(addressRefusal("10.0.0.1", false)).toBe("a private network address");
    expect(addressRefusal("10.0.0.1", true)).toBeNull();
    expect(addressRefusal("::1", true)).toBeNull();
    expect(addressRefusal("fe80::1", true)).toBe("a link-local address");
    expect(addressRefusal("169.254.169.254", true)).toBe("a cloud metadata address");
    expect(addressRefusal("8.8.8.8", false)).toBeNull();
  });
});
