import { BlockList, isIPv4 } from "node:net";

/**
 * What an IP address reaches: the internet (`public`), this host or a private network
 * (`private`: reachable only when the operator allows it), or something a server-side request
 * must never reach (`forbidden`: cloud metadata, link-local, unspecified, multicast, reserved).
 */
export type AddressClass = { kind: "public" } | { kind: "private" | "forbidden"; reason: string };

type Range = [network: string, prefix: number];

/** First match wins: the metadata addresses sit inside the link-local and private ranges below them. */
const RULES: [kind: "private" | "forbidden", reason: string, ranges: Range[]][] = [
  [
    "forbidden",
    "cloud metadata",
    [
      ["169.254.169.254", 32], // AWS, GCP, Azure, OpenStack...
      ["169.254.170.2", 32], // AWS ECS task credentials
      ["100.100.100.200", 32], // Alibaba Cloud
      ["fd00:ec2::254", 128], // AWS over IPv6
    ],
  ],
  [
    "forbidden",
    "unspecified",
    [
      ["0.0.0.0", 8],
      ["::", 128],
    ],
  ],
  [
    "private",
    "loopback",
    [
      ["127.0.0.0", 8],
      ["::1", 128],
    ],
  ],
  [
    "forbidden",
    "link-local",
    [
      ["169.254.0.0", 16],
      ["fe80::", 10],
    ],
  ],
  [
    "forbidden",
    "multicast",
    [
      ["224.0.0.0", 4],
      ["ff00::", 8],
    ],
  ],
  [
    "forbidden",
    "reserved",
    [
      ["240.0.0.0", 4], // future use and broadcast
      ["192.0.0.0", 24], // IETF protocol assignments
      ["192.88.99.0", 24], // former 6to4 relays
      ["::", 96], // IPv4-compatible IPv6 (deprecated)
      ["100::", 64], // discard
      ["2001::", 23], // IETF protocol assignments, Teredo among them
      ["fec0::", 10], // site-local (deprecated)
    ],
  ],
  [
    "forbidden",
    "documentation",
    [
      ["192.0.2.0", 24],
      ["198.51.100.0", 24],
      ["203.0.113.0", 24],
      ["2001:db8::", 32],
      ["3fff::", 20],
    ],
  ],
  [
    "private",
    "private network",
    [
      ["10.0.0.0", 8],
      ["172.16.0.0", 12],
      ["192.168.0.0", 16],
      ["fc00::", 7], // unique local, fd00::/8 among them
      ["64:ff9b:1::", 48], // local-use NAT64
    ],
  ],
  ["private", "shared (carrier-grade NAT)", [["100.64.0.0", 10]]],
  ["private", "benchmarking", [["198.18.0.0", 15]]],
];

const LISTS = RULES.map(([kind, reason, ranges]) => {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, isIPv4(network) ? "ipv4" : "ipv6");
  return { kind, reason, list };
});

/** The eight 16-bit groups of an IPv6 address, or null when it is none (a zone index `%eth0` included). */
function ipv6Groups(address: string): number[] | null {
  let canonical: string;
  try {
    // The URL parser validates it and writes it canonically: lowercase hex, no dotted tail.
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head = "", tail] = canonical.split("::");
  const groups = (part: string) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const dotted = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");

/** The IPv4 address an IPv6 one carries and reaches: mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96) or 6to4 (2002::/16). */
function embeddedIPv4(groups: number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return dotted(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return dotted(g6, g7);
  if (g0 === 0x2002) return dotted(g1 ?? 0, g2 ?? 0);
  return null;
}

const NOT_AN_ADDRESS: AddressClass = { kind: "forbidden", reason: "unparsable" };

function classifyIn(address: string, type: "ipv4" | "ipv6"): AddressClass {
  const match = LISTS.find(({ list }) => list.check(address, type));
  return match ? { kind: match.kind, reason: match.reason } : { kind: "public" };
}

/** Classifies an IPv4 or IPv6 address as the resolver answers it; anything else is forbidden. */
export function classifyAddress(address: string): AddressClass {
  if (isIPv4(address)) return classifyIn(address, "ipv4");
  const groups = ipv6Groups(address);
  if (!groups) return NOT_AN_ADDRESS;
  const ipv4 = embeddedIPv4(groups);
  // Mapped is that IPv4 address itself; NAT64 and 6to4 are routes to it: judged by where they lead.
  return ipv4 ? classifyIn(ipv4, "ipv4") : classifyIn(address, "ipv6");
}

/** Why a request must not go to an address of this class ("a loopback address"), or null when it may. */
export function refusalOf(found: AddressClass, allowPrivate: boolean): string | null {
  if (found.kind === "public" || (found.kind === "private" && allowPrivate)) return null;
  return `${/^[aeiou]/.test(found.reason) ? "an" : "a"} ${found.reason} address`;
}

/** Why a request must not go to `address`, or null when it may. */
export const addressRefusal = (address: string, allowPrivate: boolean) => refusalOf(classifyAddress(address), allowPrivate);
