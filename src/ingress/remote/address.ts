// Which addresses and host names remote ingress may reach: public unicast only. Everything is decided by ipaddr.js
// ranges; IPv6 forms that embed an IPv4 address are judged by the address they embed.
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const PUBLIC = 'unicast';

/** Names that never point at a public service: loopback names, cloud metadata, private-use TLDs (RFC 6761/6762/8375, ICANN .internal). */
const FORBIDDEN_NAMES = new Set(['localhost', 'metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data']);
const FORBIDDEN_SUFFIXES = ['.localhost', '.internal', '.local', '.home.arpa'];

const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
// ::a.b.c.d, deprecated "IPv4-compatible" addresses: ipaddr.js calls them unicast, but nothing public lives there.
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/** Lower-cases and drops trailing dots, so `LOCALHOST.` and `localhost` are the same name. */
export function normalizeHostname(hostname: string): string {
  return hostname.toLowerCase().replace(/\.+$/, '');
}

export function isForbiddenHostname(hostname: string): boolean {
  const name = normalizeHostname(hostname);
  return FORBIDDEN_NAMES.has(name) || FORBIDDEN_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/** The URL hostname without IPv6 brackets. */
export function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function ipv4From(bytes: number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes);
}

/** The IPv4 address carried inside an IPv6 address, for the forms that carry one. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = address.toByteArray();
  switch (address.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return ipv4From(bytes.slice(12));
    case 'rfc6052': // NAT64 64:ff9b::a.b.c.d; the 64:ff9b:1::/48 local-use prefix embeds nothing we can judge
      return address.match(NAT64_WELL_KNOWN) ? ipv4From(bytes.slice(12)) : null;
    case '6to4': // 2002:aabb:ccdd::
      return ipv4From(bytes.slice(2, 6));
    default:
      return null;
  }
}

/**
 * The range name that makes an address forbidden (`loopback`, `private`, `linkLocal`, …), or null for a public address.
 * An IPv6 address that embeds a forbidden IPv4 address is forbidden as e.g. `ipv4Mapped:loopback`.
 */
export function forbiddenRange(address: string): string | null {
  let parsed: Address;
  try {
    parsed = ipaddr.parse(unbracket(address));
  } catch {
    return 'invalid';
  }
  return forbiddenRangeOf(parsed);
}

function forbiddenRangeOf(address: Address): string | null {
  if (address.kind() === 'ipv4') return address.range() === PUBLIC ? null : address.range();
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) {
    const inner = forbiddenRangeOf(embedded);
    return inner === null ? null : `${v6.range()}:${inner}`;
  }
  if (v6.range() === PUBLIC && v6.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
  return v6.range() === PUBLIC ? null : v6.range();
}
