import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import UPNG from '@pdf-lib/upng';
import { reportFonts } from '../../../functions/report/fonts';
import { renderReport } from '../../../functions/report/layout/render-report';
import { PAGE } from '../../../functions/report/layout/theme';
import { documentInput } from './fixtures';

/**
 * Visual check: page 1 rasterised by poppler's pdftoppm (Debian poppler-utils, installed by
 * .ci/run) must have the page size and real ink: text, the notice panel and the accent title.
 */
describe('page 1 as an image', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hale-report-png-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('renders at Letter size and is neither blank nor flooded', async () => {
    const pdfPath = path.join(dir, 'report.pdf');
    writeFileSync(pdfPath, await renderReport(documentInput('full', 3), reportFonts(), new Date()));
    execFileSync('pdftoppm', ['-png', '-r', '72', '-f', '1', '-l', '1', '-singlefile', pdfPath, path.join(dir, 'page')]);
    const png = readFileSync(path.join(dir, 'page.png'));
    const image = UPNG.decode(png.buffer.slice(png.byteOffset, png.byteOffset + png.byteLength));
    expect([image.width, image.height]).toEqual([PAGE.width, PAGE.height]);

    const rgba = new Uint8Array(UPNG.toRGBA8(image)[0]!);
    let ink = 0;
    let accent = 0;
    const titleRows = PAGE.margin + 40;
    for (let i = 0; i < rgba.length; i += 4) {
      const [r, g, b] = [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!];
      if (r + g + b < 600) ink += 1;
      // The title is drawn in the accent blue (0, 114, 178) near the top of the page.
      if (i / 4 / image.width < titleRows && b > 140 && r < 60) accent += 1;
    }
    const share = ink / (image.width * image.height);
    expect(share).toBeGreaterThan(0.01);
    expect(share).toBeLessThan(0.5);
    expect(accent).toBeGreaterThan(200);
  });
});
