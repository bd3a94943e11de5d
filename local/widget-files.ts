import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { HttpResponse } from './api-gateway-event';

/** URL prefix of the versioned widget build (DESIGN §3: /widget/v1/hale-widget.js). */
export const WIDGET_PREFIX = '/widget/v1/';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

/** A plain file name: no folders, no dot-files, so nothing outside the build folder is reachable. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A file of the built widget, or undefined when there is none. Versioned files never change
 * under their URL (a new version gets a new path), hence the year-long immutable caching.
 */
export async function widgetFile(widgetDir: string, fileName: string): Promise<HttpResponse | undefined> {
  if (!FILE_NAME.test(fileName)) return undefined;
  let body: Buffer;
  try {
    body = await readFile(path.join(widgetDir, fileName));
  } catch {
    return undefined;
  }
  return {
    statusCode: 200,
    headers: {
      'content-type': CONTENT_TYPES[path.extname(fileName)] ?? 'application/octet-stream',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'access-control-allow-origin': '*',
    },
    body,
  };
}
