import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WIDGET_OUT_DIR } from '../../../widget/build';
import { WIDGET_PREFIX, widgetFile } from '../../../local/widget-files';

/**
 * A host page for the widget on loopback: `/` is an empty page with a container and the widget script;
 * `/with-chart` also loads Chart.js itself first (a host that already has window.Chart); `/esm`
 * imports the ES module build instead. Widget files are served from the build by the local runtime's
 * own file function.
 */
export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

function page(scripts: string[]): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Host page</title>${scripts.map((src) => `<script src="${src}"></script>`).join('')}</head>
<body style="margin:0"><main><h1 style="margin:8px">Host page</h1><div id="report"></div></main></body></html>`;
}

const PAGES: Record<string, string> = {
  '/': page([`${WIDGET_PREFIX}hale-widget.js`]),
  '/with-chart': page([`${WIDGET_PREFIX}chart.umd.js`, `${WIDGET_PREFIX}hale-widget.js`]),
  // The ES module build, exposed as window.HaleWidget so the same test code drives it.
  '/esm': page([]).replace('</head>', `<script type="module">import * as api from '${WIDGET_PREFIX}hale-widget.mjs'; window.HaleWidget = api;</script></head>`),
  '/favicon.ico': '',
};

export async function startPageServer(): Promise<PageServer> {
  const server: Server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://local').pathname;
    if (pathname.startsWith(WIDGET_PREFIX)) {
      void widgetFile(WIDGET_OUT_DIR, pathname.slice(WIDGET_PREFIX.length)).then((file) => {
        res.writeHead(file?.statusCode ?? 404, file?.headers ?? {});
        res.end(file?.body);
      });
      return;
    }
    const html = PAGES[pathname];
    res.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
