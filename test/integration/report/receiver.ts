import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PATIENCE_MS } from '../helpers/aws';

export interface ReceivedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What the receiver does with the n-th request (0-based) of a method: answer a status or drop the connection. */
export type Behaviour = (method: string, index: number) => number | 'drop';

/**
 * A caller's callback endpoint: POST and PUT on one URL (spec §4.5), recording every request with
 * its headers and body, answering as `behaviour` says.
 */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly server: Server;
  private waiters: (() => void)[] = [];
  behaviour: Behaviour = () => 200;

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const method = req.method ?? '';
        const index = this.requests.filter((r) => r.method === method).length;
        const answer = this.behaviour(method, index);
        this.requests.push({ method, url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        for (const wake of this.waiters.splice(0)) wake();
        if (answer === 'drop') {
          req.socket.destroy();
          return;
        }
        res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
      });
    });
  }

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  of(method: string, path?: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.method === method && (path === undefined || r.url.startsWith(path)));
  }

  /** Resolves once `predicate` holds over the recorded requests; fails after `timeoutMs`. */
  async waitFor(predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs = PATIENCE_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.requests)) {
      if (Date.now() > deadline) throw new Error(`receiver: condition not met after ${timeoutMs} ms (${this.requests.length} requests)`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  reset(behaviour: Behaviour = () => 200): void {
    this.requests.length = 0;
    this.behaviour = behaviour;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
