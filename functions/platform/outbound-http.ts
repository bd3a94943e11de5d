import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { blockedAddressReason, canonicalAddress } from './address-policy';
import { config } from './config';
import { BlockedTargetError, type OutboundHttp, type OutboundRequest, OutboundRequestError, type OutboundResponse } from './ports';

/**
 * The one way Hale calls a URL a caller gave it (report callbacks, pre-signed PUTs, lab webhooks),
 * guarded against SSRF as the OWASP SSRF Prevention Cheat Sheet advises:
 * - `https:` only (plain `http:` only when HALE_ALLOW_PRIVATE_TARGETS is on: local runs and tests);
 * - every address the host resolves to must be ordinary public unicast (address-policy.ts): loopback,
 *   private, link-local (169.254.169.254 metadata), CGNAT, unspecified, multicast, broadcast, reserved,
 *   unique-local (fd00:ec2::254 metadata), and every IPv6 spelling that embeds such an IPv4 address
 *   (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo, ISATAP) are refused;
 * - the connection goes to the address that was checked (a pinned `lookup`), so a DNS answer that
 *   changes between check and connect (rebinding) cannot redirect it; and the address the socket
 *   actually connected to is judged again before a byte is sent;
 * - redirects are never followed: a 3xx comes back as an ordinary non-2xx response, which delivery
 *   code counts as a failed attempt (Standard Webhooks: only 2xx is success);
 * - connect and total timeouts, and at most `maxResponseBytes` of the response body are read (the
 *   rest is dropped; callers only need the status and a snippet).
 */

/** All addresses of a host name, as the system resolver (or a test) sees them. */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface TargetPolicy {
  /** Allow `http:` and private/loopback addresses (HALE_ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets: boolean;
  resolve: Resolver;
}

export interface SafeTarget {
  url: URL;
  /** The checked addresses the request must connect to. */
  addresses: string[];
}

export interface OutboundHttpOptions extends Partial<TargetPolicy> {
  connectTimeoutMs?: number;
  /** Default total time for a request when the request names none. */
  timeoutMs?: number;
  maxResponseBytes?: number;
}

export const OUTBOUND_DEFAULTS = { connectTimeoutMs: 10_000, timeoutMs: 10_000, maxResponseBytes: 64 * 1024 } as const;

const systemResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};

function policyWithDefaults(policy: Partial<TargetPolicy>): TargetPolicy {
  return {
    allowPrivateTargets: policy.allowPrivateTargets ?? config().HALE_ALLOW_PRIVATE_TARGETS,
    resolve: policy.resolve ?? systemResolver,
  };
}

async function resolveAll(hostname: string, resolve: Resolver): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await resolve(hostname);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') throw new BlockedTargetError(`Target host ${hostname} does not resolve`);
    throw new OutboundRequestError('network', `Could not resolve ${hostname} (${code ?? 'unknown error'})`, { cause: error });
  }
  if (addresses.length === 0) throw new BlockedTargetError(`Target host ${hostname} does not resolve`);
  return addresses;
}

/**
 * Checks a caller-supplied URL and resolves it to the addresses a request may connect to. Request
 * handlers call it to reject a bad callback URL up front; `send` calls it again at delivery time.
 * Throws BlockedTargetError naming the reason.
 */
export async function assertSafeTargetUrl(target: string, policy: Partial<TargetPolicy> = {}): Promise<SafeTarget> {
  const { allowPrivateTargets, resolve } = policyWithDefaults(policy);
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new BlockedTargetError('Target is not a valid absolute URL');
  }
  const allowedProtocols = allowPrivateTargets ? ['https:', 'http:'] : ['https:'];
  if (!allowedProtocols.includes(url.protocol)) {
    throw new BlockedTargetError(`Target must use https, not ${url.protocol.replace(/:$/, '')}`);
  }
  // WHATWG URL already normalised numeric forms (http://2130706433/ → 127.0.0.1, [::127.0.0.1] → [::7f00:1]).
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = canonicalAddress(hostname) !== undefined;
  const addresses = literal ? [hostname] : (await resolveAll(hostname, resolve)).map((address) => canonicalAddress(address) ?? address);
  if (!allowPrivateTargets) {
    for (const address of addresses) {
      const reason = blockedAddressReason(address);
      if (reason === undefined) continue;
      throw new BlockedTargetError(literal ? `Target ${address} is ${reason}` : `Target host ${hostname} resolves to ${address}, ${reason}`);
    }
  }
  return { url, addresses };
}

/** A `lookup` that answers only with the checked addresses, whatever DNS says by now. */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4 }));
  return (_hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = family ? entries.filter((entry) => entry.family === family) : entries;
    if (usable.length === 0) {
      callback(Object.assign(new Error('No checked address of the requested family'), { code: 'ENOTFOUND' }), '', 0);
    } else if (options.all) {
      callback(null, usable);
    } else {
      callback(null, usable[0]!.address, usable[0]!.family);
    }
  };
}

/**
 * The last word: the address the socket actually connected to, judged once the TCP connection is up.
 * Only `https:` reaches a public target, so nothing but a TLS ClientHello can have left by then.
 */
export function refusedPeer(remoteAddress: string | undefined, allowPrivateTargets: boolean): BlockedTargetError | undefined {
  if (allowPrivateTargets) return undefined;
  if (remoteAddress === undefined) return new BlockedTargetError('The connection has no peer address to check');
  const reason = blockedAddressReason(remoteAddress);
  return reason === undefined ? undefined : new BlockedTargetError(`Connected to ${remoteAddress}, which is ${reason}`);
}

function flattenHeaders(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

export class GuardedOutboundHttp implements OutboundHttp {
  private readonly policy: Partial<TargetPolicy>;
  private readonly connectTimeoutMs: number;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;

  constructor(options: OutboundHttpOptions = {}) {
    this.policy = { allowPrivateTargets: options.allowPrivateTargets, resolve: options.resolve };
    this.connectTimeoutMs = options.connectTimeoutMs ?? OUTBOUND_DEFAULTS.connectTimeoutMs;
    this.timeoutMs = options.timeoutMs ?? OUTBOUND_DEFAULTS.timeoutMs;
    this.maxResponseBytes = options.maxResponseBytes ?? OUTBOUND_DEFAULTS.maxResponseBytes;
  }

  async send(request: OutboundRequest): Promise<OutboundResponse> {
    const { url, addresses } = await assertSafeTargetUrl(request.url, this.policy);
    const { allowPrivateTargets } = policyWithDefaults(this.policy);
    const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body);
    const transport = url.protocol === 'https:' ? https : http;
    const totalTimeoutMs = request.timeoutMs ?? this.timeoutMs;
    const host = url.host;

    return new Promise<OutboundResponse>((resolve, reject) => {
      const timers: NodeJS.Timeout[] = [];
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        for (const timer of timers) clearTimeout(timer);
        outcome();
      };

      const req = transport.request(url, {
        method: request.method,
        headers: { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        lookup: pinnedLookup(addresses),
        // A fresh connection per request: a pooled socket would skip the pinned lookup's checks.
        agent: false,
      });

      timers.push(
        setTimeout(() => req.destroy(new OutboundRequestError('timeout', `No complete response from ${host} within ${totalTimeoutMs} ms`)), totalTimeoutMs),
      );
      req.on('socket', (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(
          () => req.destroy(new OutboundRequestError('connect_timeout', `Could not connect to ${host} within ${this.connectTimeoutMs} ms`)),
          this.connectTimeoutMs,
        );
        timers.push(timer);
        socket.once('connect', () => {
          clearTimeout(timer);
          const refused = refusedPeer(socket.remoteAddress, allowPrivateTargets);
          if (refused) req.destroy(refused);
        });
      });

      req.on('error', (error) => {
        finish(() =>
          reject(
            error instanceof OutboundRequestError
              ? error
              : new OutboundRequestError('network', `Request to ${host} failed (${(error as NodeJS.ErrnoException).code ?? error.name})`, { cause: error }),
          ),
        );
      });

      req.on('response', (response) => {
        const chunks: Buffer[] = [];
        let received = 0;
        const respond = () =>
          finish(() =>
            resolve({ status: response.statusCode ?? 0, headers: flattenHeaders(response), body: Buffer.concat(chunks).toString('utf8') }),
          );
        response.on('data', (chunk: Buffer) => {
          const room = this.maxResponseBytes - received;
          if (room > 0) chunks.push(chunk.subarray(0, room));
          received += chunk.length;
          if (received >= this.maxResponseBytes) {
            respond();
            response.destroy();
          }
        });
        response.on('end', respond);
        response.on('error', (error) => req.destroy(error));
      });

      req.end(body);
    });
  }
}

/** The guarded client with HALE_ALLOW_PRIVATE_TARGETS from the configuration and the default limits. */
export function outboundHttp(): OutboundHttp {
  return new GuardedOutboundHttp();
}
