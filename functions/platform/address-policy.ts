import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses Hale may connect to on a caller's behalf (callbacks, webhooks, pre-signed PUTs):
 * ordinary public unicast only. An IPv6 address that carries an IPv4 address (RFC 4291 IPv4-mapped and
 * IPv4-compatible, RFC 6145 IPv4-translated, RFC 6052 / RFC 8215 NAT64, RFC 3056 6to4, RFC 4380 Teredo,
 * RFC 5214 ISATAP) is judged by the IPv4 address inside as well, so no spelling of 127.0.0.1, 10.0.0.0/8
 * or 169.254.169.254 gets through as "IPv6 unicast".
 */

const IPV4_REASONS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address (cloud metadata lives there)',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

const IPV6_REASONS: Record<string, string> = {
  ...IPV4_REASONS,
  uniqueLocal: 'a private (unique local) address',
  deprecatedSiteLocal: 'a site-local address',
};

/** How an IPv4 address sits inside an IPv6 one. */
export type Embedding = 'IPv4-mapped' | 'IPv4-compatible' | 'IPv4-translated' | 'NAT64' | '6to4' | 'Teredo server' | 'Teredo client' | 'ISATAP';

export interface EmbeddedIPv4 {
  ipv4: string;
  embedding: Embedding;
}

/** 32 bits from two 16-bit IPv6 groups, as a dotted quad. */
function dottedQuad(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * Canonical text of an address in any spelling Node or a URL accepts (`::127.0.0.1`, `0::7f00:1`,
 * `0177.0.0.1` …), or undefined when it is not an IP address. WHATWG URL parsing is the reference:
 * it is what turned the caller's URL into a host in the first place.
 */
export function canonicalAddress(address: string): string | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  // A zone id (fe80::1%eth0) never belongs to a public address.
  if (bare.includes('%')) return undefined;
  try {
    const host = new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname.replace(/^\[(.*)\]$/, '$1');
    return isIP(host) ? host : undefined;
  } catch {
    return undefined;
  }
}

/** Every IPv4 address an IPv6 address carries, by the embeddings the RFCs define. */
export function embeddedIPv4(address: ipaddr.IPv6): EmbeddedIPv4[] {
  const p = address.parts as [number, number, number, number, number, number, number, number];
  const found: EmbeddedIPv4[] = [];
  const zeroTo = (end: number) => p.slice(0, end).every((part) => part === 0);
  if (zeroTo(5) && p[5] === 0xffff) found.push({ ipv4: dottedQuad(p[6], p[7]), embedding: 'IPv4-mapped' });
  else if (zeroTo(4) && p[4] === 0xffff && p[5] === 0) found.push({ ipv4: dottedQuad(p[6], p[7]), embedding: 'IPv4-translated' });
  else if (zeroTo(6) && (p[6] !== 0 || p[7] > 1)) found.push({ ipv4: dottedQuad(p[6], p[7]), embedding: 'IPv4-compatible' });
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052 §2.1): the IPv4 address is the last 32 bits.
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((part) => part === 0)) found.push({ ipv4: dottedQuad(p[6], p[7]), embedding: 'NAT64' });
  // Local-use NAT64 64:ff9b:1::/48 (RFC 8215) with a /96 prefix, the usual choice.
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 1) found.push({ ipv4: dottedQuad(p[6], p[7]), embedding: 'NAT64' });
  if (p[0] === 0x2002) found.push({ ipv4: dottedQuad(p[1], p[2]), embedding: '6to4' });
  if (p[0] === 0x2001 && p[1] === 0) {
    found.push({ ipv4: dottedQuad(p[2], p[3]), embedding: 'Teredo server' });
    // RFC 4380 §4: the client address is stored with every bit inverted.
    found.push({ ipv4: dottedQuad(p[6] ^ 0xffff, p[7] ^ 0xffff), embedding: 'Teredo client' });
  }
  // ISATAP interface identifier (RFC 5214 §6.1): [0 or 200]:5efe:a.b.c.d under any /64 prefix.
  if ((p[4] === 0 || p[4] === 0x200) && p[5] === 0x5efe) found.push({ ipv4: dottedQuad(p[6], p[7]), embedding: 'ISATAP' });
  return found;
}

function ipv4Reason(address: ipaddr.IPv4): string | undefined {
  const range = address.range();
  if (range === 'unicast') return undefined;
  return IPV4_REASONS[range] ?? `a reserved address (${range})`;
}

/**
 * IPv6 ranges that are fine once the IPv4 address inside is: IPv4-mapped (a dual-stack socket connects
 * to that IPv4 address) and the well-known NAT64 prefix (the translator connects to it). Every other
 * transition range (local-use NAT64, 6to4, Teredo, IPv4-compatible, IPv4-translated) is refused
 * outright: deprecated or not globally reachable (IANA special-purpose registry).
 */
function ipv6RangeReason(address: ipaddr.IPv6, embedded: EmbeddedIPv4[]): string | undefined {
  const range = address.range();
  if (range === 'ipv4Mapped') return undefined;
  if (range === 'rfc6052') {
    return address.parts[2] === 1 ? 'a local-use NAT64 address (not globally reachable)' : undefined;
  }
  if (range === 'unicast') {
    return embedded.some((e) => e.embedding === 'IPv4-compatible') ? 'an IPv4-compatible address (deprecated, RFC 4291)' : undefined;
  }
  if (range === 'rfc6145') return 'an IPv4-translated address';
  return IPV6_REASONS[range] ?? `a reserved address (${range})`;
}

/** Why an address may not be a target, or undefined for ordinary public unicast. */
export function blockedAddressReason(address: string): string | undefined {
  const canonical = canonicalAddress(address);
  if (canonical === undefined) return 'not an IP address';
  const parsed = ipaddr.parse(canonical);
  if (parsed.kind() === 'ipv4') return ipv4Reason(parsed as ipaddr.IPv4);
  const ipv6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIPv4(ipv6);
  for (const { ipv4, embedding } of embedded) {
    const reason = ipv4Reason(ipaddr.IPv4.parse(ipv4));
    if (reason !== undefined) return `${reason} (${ipv4}, ${embedding})`;
  }
  return ipv6RangeReason(ipv6, embedded);
}
