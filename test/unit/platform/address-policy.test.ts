import ipaddr from 'ipaddr.js';
import { blockedAddressReason, canonicalAddress, embeddedIPv4 } from '../../../functions/platform/address-policy';
import { assertSafeTargetUrl, refusedPeer, type Resolver } from '../../../functions/platform/outbound-http';
import { BlockedTargetError } from '../../../functions/platform/ports';

/**
 * Spellings of private, loopback, link-local and metadata targets, as a caller would put them in a
 * callback_url / webhookUrl / s3_presigned_url. Each must be refused by the URL check (what the
 * request handlers run) with a reason of the expected kind.
 */
const REFUSED_URLS: [url: string, reason: RegExp][] = [
  // IPv4 loopback in every numeric form WHATWG URL accepts
  ['https://127.0.0.1/x', /loopback/],
  ['https://127.1/x', /loopback/],
  ['https://127.0.1/x', /loopback/],
  ['https://2130706433/x', /loopback/],
  ['https://0x7f000001/x', /loopback/],
  ['https://0x7f.0x0.0x0.0x1/x', /loopback/],
  ['https://0177.0.0.1/x', /loopback/],
  ['https://017700000001/x', /loopback/],
  ['https://127.255.255.254/x', /loopback/],
  ['https://127.000.000.001/x', /loopback/],
  ['https://0x7F.1/x', /loopback/],
  ['https://%31%32%37.0.0.1/x', /loopback/],
  ['https://127.0.0.1.:8443/x', /loopback/],
  // private, CGNAT, metadata, unspecified, broadcast, multicast, reserved IPv4
  ['https://10.0.0.1/x', /private/],
  ['https://10.255.255.255/x', /private/],
  ['https://172.16.0.1/x', /private/],
  ['https://172.31.255.254/x', /private/],
  ['https://192.168.0.1/x', /private/],
  ['https://0xc0a80001/x', /private/],
  ['https://3232235521/x', /private/],
  ['https://169.254.169.254/latest/meta-data/', /link-local/],
  ['https://169.254.170.2/v2/credentials', /link-local/],
  ['https://169.254.169.253/', /link-local/],
  ['https://0xa9fea9fe/', /link-local/],
  ['https://2852039166/', /link-local/],
  ['https://0251.0376.0251.0376/', /link-local/],
  ['https://100.100.100.200/latest/meta-data/', /carrier-grade NAT/],
  ['https://100.64.0.1/', /carrier-grade NAT/],
  ['https://192.0.0.192/opc/v1/instance/', /reserved/],
  ['https://0.0.0.0/', /unspecified/],
  ['https://0/', /unspecified/],
  ['https://0.1.2.3/', /unspecified/],
  ['https://255.255.255.255/', /broadcast/],
  ['https://224.0.0.1/', /multicast/],
  ['https://240.0.0.1/', /reserved/],
  ['https://198.18.0.1/', /reserved/],
  ['https://192.0.2.1/', /reserved/],
  // IPv6 loopback, unspecified, link-local, unique-local (fd00:ec2::254 is the EC2 IPv6 metadata address)
  ['https://[::1]/x', /loopback/],
  ['https://[0:0:0:0:0:0:0:1]/x', /loopback/],
  ['https://[0000::0001]/x', /loopback/],
  ['https://[::]/x', /unspecified/],
  ['https://[fe80::1]/x', /link-local/],
  ['https://[febf:ffff::1]/x', /link-local/],
  ['https://[fd00:ec2::254]/latest/meta-data/', /unique local/],
  ['https://[fd00:ec2::23]/', /unique local/],
  ['https://[fc00::1]/', /unique local/],
  ['https://[fec0::1]/', /site-local/],
  ['https://[ff02::1]/', /multicast/],
  // IPv4-mapped ::ffff:0:0/96
  ['https://[::ffff:127.0.0.1]/x', /loopback.*IPv4-mapped/],
  ['https://[::ffff:7f00:1]/x', /loopback.*IPv4-mapped/],
  ['https://[0:0:0:0:0:ffff:7f00:1]/x', /loopback.*IPv4-mapped/],
  ['https://[::ffff:169.254.169.254]/', /link-local.*IPv4-mapped/],
  ['https://[::ffff:a9fe:a9fe]/', /link-local.*IPv4-mapped/],
  ['https://[::ffff:10.0.0.1]/', /private.*IPv4-mapped/],
  ['https://[::ffff:c0a8:101]/', /private.*IPv4-mapped/],
  ['https://[::ffff:0.0.0.0]/', /unspecified.*IPv4-mapped/],
  // IPv4-compatible ::/96 (the four spellings the probe found accepted)
  ['https://[::127.0.0.1]:47904/x', /loopback.*IPv4-compatible/],
  ['https://[::7f00:1]/x', /loopback.*IPv4-compatible/],
  ['https://[::a9fe:a9fe]/latest/meta-data/', /link-local.*IPv4-compatible/],
  ['https://[::a00:1]/x', /private.*IPv4-compatible/],
  ['https://[::169.254.169.254]/', /link-local.*IPv4-compatible/],
  ['https://[0::10.0.0.1]/', /private.*IPv4-compatible/],
  ['https://[::192.168.1.1]/', /private.*IPv4-compatible/],
  ['https://[::ac10:1]/', /private.*IPv4-compatible/],
  ['https://[::6440:1]/', /carrier-grade NAT.*IPv4-compatible/],
  ['https://[::808:808]/', /IPv4-compatible address \(deprecated/],
  // IPv4-translated ::ffff:0:0:0/96 (RFC 6145)
  ['https://[::ffff:0:127.0.0.1]/', /loopback.*IPv4-translated/],
  ['https://[::ffff:0:a9fe:a9fe]/', /link-local.*IPv4-translated/],
  ['https://[::ffff:0:808:808]/', /IPv4-translated address/],
  // NAT64 well-known (RFC 6052) and local-use (RFC 8215) prefixes
  ['https://[64:ff9b::127.0.0.1]/', /loopback.*NAT64/],
  ['https://[64:ff9b::7f00:1]/', /loopback.*NAT64/],
  ['https://[64:ff9b::a9fe:a9fe]/latest/meta-data/', /link-local.*NAT64/],
  ['https://[64:ff9b::10.1.2.3]/', /private.*NAT64/],
  ['https://[64:ff9b::c0a8:1]/', /private.*NAT64/],
  ['https://[64:ff9b:1::a00:1]/', /private.*NAT64/],
  ['https://[64:ff9b:1::808:808]/', /local-use NAT64/],
  // 6to4 2002::/16: the IPv4 address is in bits 16–47
  ['https://[2002:7f00:1::]/', /loopback.*6to4/],
  ['https://[2002:7f00:1::1]/', /loopback.*6to4/],
  ['https://[2002:a9fe:a9fe::1]/', /link-local.*6to4/],
  ['https://[2002:a00:1::]/', /private.*6to4/],
  ['https://[2002:c0a8:101:1::1]/', /private.*6to4/],
  ['https://[2002:808:808::1]/', /reserved address \(6to4\)/],
  // Teredo 2001::/32: server in bits 32–63, client inverted in the last 32 bits
  ['https://[2001:0:7f00:1::]/', /loopback.*Teredo server/],
  ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', /loopback.*Teredo client/],
  ['https://[2001:0:4136:e378:8000:63bf:5601:5601]/', /link-local.*Teredo client/],
  ['https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/', /private.*Teredo client/],
  ['https://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/', /reserved address \(teredo\)/],
  // ISATAP interface identifiers under a global prefix
  ['https://[2600:1f18::5efe:7f00:1]/', /loopback.*ISATAP/],
  ['https://[2600:1f18::200:5efe:a9fe:a9fe]/', /link-local.*ISATAP/],
  ['https://[2a00:1450::5efe:10.0.0.1]/', /private.*ISATAP/],
  // other reserved IPv6
  ['https://[2001:db8::1]/', /reserved/],
  ['https://[100::1]/', /reserved address \(discard\)/],
];

const publicResolver: Resolver = async () => ['93.184.215.14'];

describe('the outbound guard refuses every spelling of a private, loopback, link-local or metadata target', () => {
  it('has a table of at least 80 spellings', () => {
    expect(REFUSED_URLS.length).toBeGreaterThanOrEqual(80);
  });

  it.each(REFUSED_URLS)('%s', async (url, reason) => {
    const attempt = assertSafeTargetUrl(url, { allowPrivateTargets: false, resolve: publicResolver });
    await expect(attempt).rejects.toBeInstanceOf(BlockedTargetError);
    await expect(attempt).rejects.toThrow(reason);
  });
});

/** The same addresses when they come from DNS instead of the URL, in the spellings a resolver may give. */
const RESOLVED_ADDRESSES: [address: string, reason: RegExp][] = [
  ['127.0.0.1', /loopback/],
  ['::1', /loopback/],
  ['::127.0.0.1', /loopback.*IPv4-compatible/],
  ['0:0:0:0:0:0:7f00:1', /loopback.*IPv4-compatible/],
  ['::ffff:127.0.0.1', /loopback.*IPv4-mapped/],
  ['::FFFF:A9FE:A9FE', /link-local.*IPv4-mapped/],
  ['64:ff9b::169.254.169.254', /link-local.*NAT64/],
  ['2002:a9fe:a9fe::', /link-local.*6to4/],
  ['fe80::1%eth0', /not an IP address/],
  ['localhost', /not an IP address/],
];

describe('host names are judged by every address they resolve to', () => {
  it.each(RESOLVED_ADDRESSES)('a host resolving to %s is refused', async (address, reason) => {
    const attempt = assertSafeTargetUrl('https://hooks.example.com/x', { allowPrivateTargets: false, resolve: async () => ['93.184.215.14', address] });
    await expect(attempt).rejects.toThrow(new RegExp(`^Target host hooks\\.example\\.com resolves to .*${reason.source}`));
  });
});

describe('public targets pass, embedded or not', () => {
  it.each([
    'https://93.184.215.14/x',
    'https://8.8.8.8/x',
    'https://[2606:4700:4700::1111]/x',
    'https://[2a00:1450:4001:82a::200e]/x',
    'https://[::ffff:8.8.8.8]/x',
    'https://[64:ff9b::8.8.8.8]/x',
    'https://[2600:1f18::5efe:808:808]/x',
  ])('%s', async (url) => {
    await expect(assertSafeTargetUrl(url, { allowPrivateTargets: false, resolve: publicResolver })).resolves.toMatchObject({ url: new URL(url) });
  });
});

describe('normalisation', () => {
  it('gives the canonical text of any address spelling and nothing for a name', () => {
    expect(canonicalAddress('::127.0.0.1')).toBe('::7f00:1');
    expect(canonicalAddress('[0:0::FFFF:7F00:1]')).toBe('::ffff:7f00:1');
    expect(canonicalAddress('0177.1')).toBe('127.0.0.1');
    expect(canonicalAddress('hooks.example.com')).toBeUndefined();
  });

  it('finds both Teredo addresses, the client one un-inverted', () => {
    expect(embeddedIPv4(ipaddr.IPv6.parse('2001:0:4136:e378:8000:63bf:3fff:fdd2'))).toEqual([
      { ipv4: '65.54.227.120', embedding: 'Teredo server' },
      { ipv4: '192.0.2.45', embedding: 'Teredo client' },
    ]);
  });

  it('blocks what it cannot read', () => {
    expect(blockedAddressReason('999.1.1.1')).toBe('not an IP address');
    expect(blockedAddressReason('')).toBe('not an IP address');
  });
});

describe('the address actually connected to', () => {
  it('is refused when it is not public, whatever the URL said', () => {
    expect(refusedPeer('::ffff:169.254.169.254', false)?.message).toBe(
      'Connected to ::ffff:169.254.169.254, which is a link-local address (cloud metadata lives there) (169.254.169.254, IPv4-mapped)',
    );
    expect(refusedPeer('10.0.0.5', false)).toBeInstanceOf(BlockedTargetError);
    expect(refusedPeer(undefined, false)).toBeInstanceOf(BlockedTargetError);
  });

  it('is accepted when public, or when private targets are allowed (local runs)', () => {
    expect(refusedPeer('93.184.215.14', false)).toBeUndefined();
    expect(refusedPeer('127.0.0.1', true)).toBeUndefined();
  });
});
