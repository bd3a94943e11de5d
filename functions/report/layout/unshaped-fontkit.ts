import fontkit from '@pdf-lib/fontkit';
import type { Font, Fontkit, Glyph, GlyphRun } from 'pdf-lib/cjs/types/fontkit';

/**
 * pdf-lib measures and encodes text through fontkit's `layout`, which runs full OpenType shaping
 * (GSUB/GPOS lookups) on every string, and parses the font file again for every document. Profiling
 * showed both dominate rendering time. pdf-lib draws glyphs at their advance widths and ignores
 * GPOS positions anyway, so for Hale's left-to-right text the only effect of shaping is ligature
 * substitution, which we do not want (a ligature glyph extracts worse as text). This fontkit parses
 * each font file once per process and maps characters to glyphs through the cmap directly.
 */
const parsed = new WeakMap<Uint8Array, Font>();

function unshaped(font: Font): Font {
  font.layout = (text: string): GlyphRun => {
    const glyphs: Glyph[] = font.glyphsForString(text);
    // pdf-lib reads only `glyphs` from a run; the rest of GlyphRun describes shaping we skip.
    return { glyphs } as unknown as GlyphRun;
  };
  return font;
}

export const unshapedFontkit: Fontkit = {
  create(data: Uint8Array): Font {
    let font = parsed.get(data);
    if (!font) {
      font = unshaped(fontkit.create(data));
      parsed.set(data, font);
    }
    return font;
  },
};
