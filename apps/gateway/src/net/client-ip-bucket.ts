import { isIPv4, isIPv6 } from "node:net";

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part becomes two groups). */
function groupsOf(address: string): number[] {
  let text = address;
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (isIPv4(tail)) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split(".").map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", rest] = text.split("::");
  const before = head ? head.split(":") : [];
  const after = rest ? rest.split(":") : [];
  const zeros = rest === undefined ? [] : Array<string>(8 - before.length - after.length).fill("0");
  return [...before, ...zeros, ...after].map((group) => parseInt(group, 16));
}

/**
 * What per-address throttles count by: an IPv4 address as it is (also when it arrives IPv4-mapped,
 * `::ffff:1.2.3.4`), an IPv6 address by its /64, the block one subscriber usually holds whole: keyed
 * by the full address, anyone with a /64 would have 2^64 allowances. Anything else (a zone id, not an
 * address) is kept as given.
 */
export function clientIpBucket(ip: string): string {
  if (isIPv4(ip) || !isIPv6(ip) || ip.includes("%")) return ip;
  const groups = groupsOf(ip.toLowerCase());
  if (groups.length !== 8 || groups.some((group) => !Number.isInteger(group))) return ip;
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6] ?? 0, groups[7] ?? 0].flatMap((group) => [group >> 8, group & 0xff]).join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
