import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on loopback; resolves to the bound port (`port` 0 picks a free one). */
export function listenOnLoopback(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Stops accepting connections, lets in-flight requests finish for up to `graceMs`, then cuts the
 * remaining connections so shutdown never hangs on a stuck client.
 */
export function closeGracefully(server: Server, graceMs: number): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
