import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  assertSafeTargetUrl,
  GuardedOutboundHttp,
  pinnedLookup,
  type Resolver,
} from '../../../functions/platform/outbound-http';
import { blockedAddressReason } from '../../../functions/platform/address-policy';
import { BlockedTargetError, OutboundRequestError } from '../../../functions/platform/ports';

const publicResolver: Resolver = async () => ['93.184.215.14'];
const strict = { allowPrivateTargets: false, resolve: publicResolver };

async function expectBlocked(url: string, message: string | RegExp, resolve: Resolver = publicResolver) {
  const attempt = new GuardedOutboundHttp({ allowPrivateTargets: false, resolve }).send({ url, method: 'POST', body: '{}' });
  await expect(attempt).rejects.toBeInstanceOf(BlockedTargetError);
  await expect(attempt).rejects.toThrow(message);
}

describe('outbound requests refuse unsafe targets', () => {
  it.each([
    ['https://127.0.0.1/callback', 'Target 127.0.0.1 is a loopback address'],
    ['https://10.1.2.3/callback', 'Target 10.1.2.3 is a private address'],
    ['https://169.254.169.254/latest/meta-data/', 'Target 169.254.169.254 is a link-local address (cloud metadata lives there)'],
    ['https://[::1]:8443/callback', 'Target ::1 is a loopback address'],
    ['https://[fd00:ec2::254]/latest/meta-data/', 'Target fd00:ec2::254 is a private (unique local) address'],
    ['https://[::ffff:169.254.169.254]/', 'is a link-local address'],
    ['https://2130706433/', 'Target 127.0.0.1 is a loopback address'],
    ['https://100.64.0.7/', 'a carrier-grade NAT address'],
    ['https://0.0.0.0/', 'the unspecified address'],
  ])('%s', async (url, message) => {
    await expectBlocked(url, message);
  });

  it('refuses a host name that resolves to a private address, naming host and address', async () => {
    await expectBlocked('https://hooks.example.com/x', 'Target host hooks.example.com resolves to 192.168.4.20, a private address', async () => [
      '93.184.215.14',
      '192.168.4.20',
    ]);
  });

  it('refuses plain http while private targets are off', async () => {
    await expectBlocked('http://hooks.example.com/x', 'Target must use https, not http');
  });

  it('refuses other schemes and non-URLs even with private targets on', async () => {
    await expect(assertSafeTargetUrl('file:///etc/passwd', { allowPrivateTargets: true })).rejects.toThrow('Target must use https, not file');
    await expect(assertSafeTargetUrl('not a url', strict)).rejects.toThrow('not a valid absolute URL');
  });

  it('refuses a host that does not resolve', async () => {
    const missing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expectBlocked('https://nowhere.invalid/', 'Target host nowhere.invalid does not resolve', missing);
  });

  it('accepts public https targets and returns the addresses it checked', async () => {
    const target = await assertSafeTargetUrl('https://hooks.example.com/x?job_id=1', strict);
    expect(target.addresses).toEqual(['93.184.215.14']);
    expect(target.url.searchParams.get('job_id')).toBe('1');
  });

  it('classifies only ordinary public unicast as allowed', () => {
    expect(blockedAddressReason('8.8.8.8')).toBeUndefined();
    expect(blockedAddressReason('2606:4700:4700::1111')).toBeUndefined();
    expect(blockedAddressReason('172.31.255.1')).toBe('a private address');
    expect(blockedAddressReason('fe80::1')).toBe('a link-local address (cloud metadata lives there)');
    expect(blockedAddressReason('255.255.255.255')).toBe('the broadcast address');
    expect(blockedAddressReason('64:ff9b::a9fe:a9fe')).toBe('a link-local address (cloud metadata lives there) (169.254.169.254, NAT64)');
  });

  it('pins the connection to the checked addresses whatever the host name', () => {
    const lookup = pinnedLookup(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    const single = jest.fn();
    lookup('rebound.example.com', { family: 0 }, single);
    expect(single).toHaveBeenCalledWith(null, '93.184.215.14', 4);
    const all = jest.fn();
    lookup('rebound.example.com', { all: true }, all);
    expect(all).toHaveBeenCalledWith(null, [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    const v6 = jest.fn();
    lookup('rebound.example.com', { family: 6 }, v6);
    expect(v6).toHaveBeenCalledWith(null, '2606:2800:21f:cb07:6820:80da:af6b:8b2c', 6);
  });
});

describe('outbound requests to an allowed (local) target', () => {
  let server: http.Server;
  let port: number;
  const received: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (req.url === '/redirect') {
          res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' }).end();
        } else if (req.url === '/large') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(200 * 1024));
        } else if (req.url === '/slow') {
          setTimeout(() => res.writeHead(200).end('late'), 2_000).unref();
        } else {
          res.writeHead(202, { 'content-type': 'application/json', 'x-seen': 'yes' }).end('{"received":true}');
        }
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });

  // A made-up name that only the injected resolver knows: the request can only arrive if the
  // connection used the resolved (pinned) address.
  const resolve = jest.fn<Promise<string[]>, [string]>(async () => ['127.0.0.1']);
  const client = new GuardedOutboundHttp({ allowPrivateTargets: true, resolve, timeoutMs: 1_000 });

  it('delivers method, headers and body and returns status, headers and body', async () => {
    const response = await client.send({
      url: `http://callback.hale.test:${port}/hook?job_id=42`,
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-job-id': '42' },
      body: '{"status":"success"}',
    });
    expect(response).toMatchObject({ status: 202, body: '{"received":true}', headers: { 'x-seen': 'yes' } });
    expect(received.at(-1)).toMatchObject({
      method: 'PUT',
      url: '/hook?job_id=42',
      body: '{"status":"success"}',
      headers: { 'content-type': 'application/json', 'x-job-id': '42', 'content-length': '20', host: `callback.hale.test:${port}` },
    });
    expect(resolve).toHaveBeenCalledWith('callback.hale.test');
  });

  it('does not follow a redirect to the metadata address: the 3xx is the answer', async () => {
    const before = received.length;
    const response = await client.send({ url: `http://127.0.0.1:${port}/redirect`, method: 'POST', body: '{}' });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('http://169.254.169.254/latest/meta-data/iam/security-credentials/');
    expect(received.length).toBe(before + 1);
  });

  it('reads at most 64 KiB of a response body', async () => {
    const response = await client.send({ url: `http://127.0.0.1:${port}/large`, method: 'POST' });
    expect(response.status).toBe(200);
    expect(response.body.length).toBe(64 * 1024);
  });

  it('gives up after the total timeout with a timeout error', async () => {
    const attempt = client.send({ url: `http://127.0.0.1:${port}/slow`, method: 'POST', timeoutMs: 150 });
    await expect(attempt).rejects.toBeInstanceOf(OutboundRequestError);
    await expect(attempt).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('reports a refused connection as a network error', async () => {
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const closedPort = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    await expect(client.send({ url: `http://127.0.0.1:${closedPort}/`, method: 'POST' })).rejects.toMatchObject({
      name: 'OutboundRequestError',
      reason: 'network',
      message: `Request to 127.0.0.1:${closedPort} failed (ECONNREFUSED)`,
    });
  });
});
