import { familiesDrawn, RASTER_FONT_SETS } from '../../../fixtures/labs/scanned';

/**
 * The scanned fixture draws the reports' unembedded standard fonts with the families it names, not with
 * whatever fontconfig would pick on the machine: the fontconfig file it runs `pdftoppm` with pins them.
 * Measured through `fc-match` under the same file, with the DejaVu families .ci/run installs.
 */
describe('the scanned fixture’s fonts', () => {
  it('are the pinned families, even ones fontconfig would never pick for those names', async () => {
    expect(await familiesDrawn({ Helvetica: 'DejaVu Sans Mono', Times: 'DejaVu Sans', Courier: 'DejaVu Serif' })).toBe(
      'Helvetica → DejaVu Sans Mono, Times → DejaVu Sans, Courier → DejaVu Serif',
    );
  });

  it('are DejaVu by default, the families .ci/run installs', async () => {
    expect(await familiesDrawn(RASTER_FONT_SETS.dejavu)).toBe('Helvetica → DejaVu Sans, Times → DejaVu Serif, Courier → DejaVu Sans Mono');
  });
});
