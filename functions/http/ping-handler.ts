import { httpRoute } from './handler';

/** Authenticated no-op: proves the key, the gateway and the handler chain work (and measures their cost). */
export const handler = httpRoute({ dialect: 'detail' }, async () => ({ body: { status: 'ok' } }));
