import type { ImageRegion, PageImage, RecognizedWord, TextRecognizer } from '../../../../functions/lab/ocr/recognizer';
import { SECOND_READING_CONFIDENCE, thresholded, withDoubtedNumbersReadAgain, withInkBesideRead, withMisshapenRangesReadAgain } from '../../../../functions/lab/ocr/second-reading';

const PAGE: PageImage = { width: 400, height: 200, dpi: 300, grey: new Uint8Array(400 * 200).fill(250) };
const DOUBTED: RecognizedWord = { text: '3843', x0: 100, y0: 100, x1: 160, y1: 130, baseline: 130, lineHeight: 38, confidence: 0.21 };

const isBlackAndWhite = (image: PageImage) => image.grey.every((g) => g === 0 || g === 255);

/**
 * An engine whose single-line readings are given per rendering: the half-size one (150 dpi), the
 * thresholded one (300 dpi, black and white only), the half-size one thresholded and the emboldened one
 * (300 dpi, grey), each a word 10 px inside the image it was handed.
 */
function engine(readings: { half?: string[]; sharp?: string[]; halfSharp?: string[]; bold?: string[] }): { recognizer: TextRecognizer; calls: PageImage[] } {
  const calls: PageImage[] = [];
  const recognizer: TextRecognizer = {
    engine: 'fake',
    recognize: async () => [],
    recognizeLine: async (image: PageImage, region: ImageRegion) => {
      calls.push(image);
      expect(region).toEqual({ x0: 0, y0: 0, x1: image.width - 1, y1: image.height - 1 });
      const texts = (image.dpi === 150 ? (isBlackAndWhite(image) ? readings.halfSharp : readings.half) : isBlackAndWhite(image) ? readings.sharp : readings.bold) ?? [];
      return texts.map((text) => ({ text, x0: 10, y0: 10, x1: image.width - 10, y1: image.height - 10, confidence: 0.95 }));
    },
  };
  return { recognizer, calls };
}

describe('thresholded', () => {
  it('turns grey under 170 black and the rest white', () => {
    const image = { width: 4, height: 1, dpi: 300, grey: Uint8Array.from([0, 169, 170, 250]) };
    expect([...thresholded(image).grey]).toEqual([0, 0, 255, 255]);
  });
});

describe('withDoubtedNumbersReadAgain', () => {
  it('takes the text both other renderings agree on, doubted below trust, with its box on the page', async () => {
    const { recognizer, calls } = engine({ half: ['33.3'], sharp: ['33.3'] });
    const [word] = await withDoubtedNumbersReadAgain([DOUBTED], PAGE, recognizer);
    expect(word).toMatchObject({ text: '33.3', confidence: SECOND_READING_CONFIDENCE, baseline: 130, lineHeight: 38 });
    expect(SECOND_READING_CONFIDENCE).toBeLessThan(0.8);
    // The box widened by 0.4 of the word's height (12 px) on every side: 88–172 × 88–142; the fake's word
    // is 10 px in from the crop's edges (its far edges at width − 10 and height − 10).
    expect(word).toMatchObject({ x0: 98, y0: 98, x1: 163, y1: 133 });
    expect(calls.map((c) => c.dpi)).toEqual([150, 300]);
    expect(isBlackAndWhite(calls[1]!)).toBe(true);
  });

  it('takes a text two of three renderings agree on, its box from the finer of them', async () => {
    // DejaVu Sans Mono's `3.5` at 300 dpi: read `3:0`, half size `iD`, black and white `3.5` at both scales.
    const word = { ...DOUBTED, text: '3:0', confidence: 0.48 };
    const { recognizer, calls } = engine({ half: ['iD'], sharp: ['3.5'], halfSharp: ['3.5'] });
    expect((await withDoubtedNumbersReadAgain([word], PAGE, recognizer))[0]).toMatchObject({ text: '3.5', confidence: SECOND_READING_CONFIDENCE, x0: 98, y0: 98, x1: 163, y1: 133 });
    expect(calls.map((c) => [c.dpi, isBlackAndWhite(c)])).toEqual([
      [150, false],
      [300, true],
      [150, true],
    ]);
    // The two half-size renderings agreeing (noisy `3.6-5.1`, read `3:6-5.1`, is `36-51` thresholded at 300 dpi): the box is theirs at twice the scale (10 px in from a crop of 84 × 54 halved to 42 × 27).
    const halves = engine({ half: ['3.5'], sharp: ['36'], halfSharp: ['3.5'] });
    expect((await withDoubtedNumbersReadAgain([word], PAGE, halves.recognizer))[0]).toMatchObject({ text: '3.5', x0: 108, y0: 108, x1: 152, y1: 122 });
  });

  it('reads a bolder rendering last, and takes what it and another agree on where the first three settle none', async () => {
    // Nimbus Mono (a thin Courier) at 10 pt: `9.4` read `9s4`; half size `9.4`, black and white `9s4` and `94`, bolder `9.4`.
    const word = { ...DOUBTED, text: '9s4', confidence: 0.48 };
    const { recognizer, calls } = engine({ half: ['9.4'], sharp: ['9:4'], halfSharp: ['94'], bold: ['9.4'] });
    expect((await withDoubtedNumbersReadAgain([word], PAGE, recognizer))[0]).toMatchObject({ text: '9.4', confidence: SECOND_READING_CONFIDENCE, x0: 98, y0: 98, x1: 163, y1: 133 });
    expect(calls.map((c) => [c.dpi, isBlackAndWhite(c)])).toEqual([
      [150, false],
      [300, true],
      [150, true],
      [300, false],
    ]);
  });

  it('puts back a comparator the page reading dropped where two renderings begin with it, however they misread the rest', async () => {
    // A noisy `<5.0 L` in DejaVu Sans Mono: the page read `5.0L` at 0.15, the `<` inside its box.
    const word = { ...DOUBTED, text: '5.0L', confidence: 0.15 };
    const [read] = await withDoubtedNumbersReadAgain([word], PAGE, engine({ half: ['<SoL'], sharp: ['<S0L'], halfSharp: ['<5.OL'] }).recognizer);
    expect(read).toEqual({ ...word, text: '<5.0L', confidence: 0.15 });
    expect((await withDoubtedNumbersReadAgain([{ ...word, text: '120', confidence: 0.5 }], PAGE, engine({ half: ['>12O'], sharp: ['>120.'] }).recognizer))[0]).toMatchObject({ text: '>120', confidence: 0.5 });
    // One rendering's comparator, renderings that differ on it, or a page reading that is no number: as read.
    const cases: Array<[string, Parameters<typeof engine>[0]]> = [
      ['5.0L', { half: ['<SoL'], sharp: ['S0L'], halfSharp: ['5oL'] }],
      ['5.0L', { half: ['<SoL'], sharp: ['>S0L'], halfSharp: ['<5oL'] }],
      ['5.0-7', { half: ['<SoL'], sharp: ['<S0L'] }],
    ];
    for (const [text, readings] of cases) {
      const doubted = { ...word, text };
      expect(await withDoubtedNumbersReadAgain([doubted], PAGE, engine(readings).recognizer)).toEqual([doubted]);
    }
  });

  it('takes no reading that has a mark no value prints between digits, where the renderings agree on it', async () => {
    const word = { ...DOUBTED, text: '41-52', confidence: 0.53 };
    expect(await withDoubtedNumbersReadAgain([word], PAGE, engine({ half: ['41:52'], sharp: ['41:52'], halfSharp: ['41:52'] }).recognizer)).toEqual([word]);
  });

  it('keeps the page reading where any rendering reads it again, before the others agree', async () => {
    const word = { ...DOUBTED, text: '3:0', confidence: 0.48 };
    const { recognizer, calls } = engine({ half: ['3.5'], sharp: ['3:0'], halfSharp: ['3.5'] });
    expect(await withDoubtedNumbersReadAgain([word], PAGE, recognizer)).toEqual([word]);
    expect(calls).toHaveLength(2);
  });

  it('reads again a number read with a mark no value prints between its digits however sure, and a titre stays', async () => {
    // DejaVu Sans Mono at 200 dpi: `26.5` read `20:5` at 0.62, `3.8` read `3:0` at 0.74; read alone, both are plain.
    for (const [read, printed] of [
      ['20:5', '26.5'],
      ['3:0', '3.8'],
      ['5;5', '5.5'],
    ] as const) {
      const [word] = await withDoubtedNumbersReadAgain([{ ...DOUBTED, text: read, confidence: 0.74 }], PAGE, engine({ half: [printed], sharp: [printed] }).recognizer);
      expect(word).toMatchObject({ text: printed, confidence: SECOND_READING_CONFIDENCE });
    }
    const titre = { ...DOUBTED, text: '1:40', confidence: 0.9 };
    expect(await withDoubtedNumbersReadAgain([titre], PAGE, engine({ half: ['1:40'], sharp: ['1:40'] }).recognizer)).toEqual([titre]);
  });

  it('keeps the first reading where the renderings disagree, read several words, or read none', async () => {
    for (const readings of [
      { half: ['33.3'], sharp: ['38.3'], halfSharp: ['33.8'] },
      { half: ['33.3'], sharp: ['33', '3'] },
      { half: [], sharp: ['33.3'] },
      { half: ['33.3'], sharp: [] },
      { half: ['33.3'], halfSharp: ['33', '.3'] },
    ]) {
      const { recognizer } = engine(readings);
      expect(await withDoubtedNumbersReadAgain([DOUBTED], PAGE, recognizer)).toEqual([DOUBTED]);
    }
  });

  it('reads no third time where the half-size rendering reads what the page reading did', async () => {
    const { recognizer, calls } = engine({ half: ['3843'], sharp: ['33.3'] });
    expect(await withDoubtedNumbersReadAgain([DOUBTED], PAGE, recognizer)).toEqual([DOUBTED]);
    expect(calls).toHaveLength(1);
  });

  it('reads again only doubted words of three characters or more holding a digit, doubted words with a slash, and short unsure words of letters, in their order', async () => {
    const { recognizer, calls } = engine({ half: ['33.3'], sharp: ['33.3'] });
    const sure = { ...DOUBTED, text: '14.9', confidence: 0.95 };
    const letters = (text: string, confidence: number) => ({ ...DOUBTED, text, confidence });
    const words = [sure, { ...DOUBTED, text: '38' }, letters('Hemoglobin', 0.3), letters('Hgb', 0.9), letters('H', 0.3), letters('mg/dL', 0.6), letters(':.', 0.3), DOUBTED];
    const read = await withDoubtedNumbersReadAgain(words, PAGE, recognizer);
    expect(read.map((w) => w.text)).toEqual(['14.9', '38', 'Hemoglobin', 'Hgb', 'H', 'mg/dL', ':.', '33.3']);
    expect(calls).toHaveLength(2);
  });

  it('takes the number or the cell word both renderings read for a short word of letters the engine was unsure of, and nothing else', async () => {
    const bil = { ...DOUBTED, text: 'Bil', confidence: 0.55 };
    expect((await withDoubtedNumbersReadAgain([bil], PAGE, engine({ half: ['8.1'], sharp: ['8.1'] }).recognizer))[0]).toMatchObject({ text: '8.1', confidence: SECOND_READING_CONFIDENCE });
    const td = { ...DOUBTED, text: 'Td', confidence: 0.62 };
    expect((await withDoubtedNumbersReadAgain([td], PAGE, engine({ half: ['71'], sharp: ['71'] }).recognizer))[0]).toMatchObject({ text: '71' });
    // Words a report prints alone in a cell: a test name, a word of a text result, a unit (as the unit table spells it).
    for (const [read, printed] of [
      ['FRE', 'EGFR'],
      ['RELI', 'DETECTED'],
      ['uisC', 'UIBC'],
      ['Pg', 'pg'],
      ['D:D', '5.5'],
    ] as const) {
      const word = { ...DOUBTED, text: read, confidence: 0.38 };
      expect((await withDoubtedNumbersReadAgain([word], PAGE, engine({ half: [printed], sharp: [printed] }).recognizer))[0]).toMatchObject({ text: printed, confidence: SECOND_READING_CONFIDENCE });
    }
    // Read again as no number and no such word (a unit the table spells otherwise), or where the renderings disagree, it stays.
    for (const readings of [{ half: ['Bix'], sharp: ['Bix'] }, { half: ['8L'], sharp: ['8L'] }, { half: ['PG'], sharp: ['PG'] }, { half: ['8.1'], sharp: ['8.7'] }]) {
      const read = { ...DOUBTED, text: 'Pg', confidence: 0.5 };
      expect(await withDoubtedNumbersReadAgain([read], PAGE, engine(readings).recognizer)).toEqual([read]);
    }
  });

  it('takes the printed unit both renderings read for a doubted word with a slash, and nothing else', async () => {
    // A noisy 150-dpi `mg/L`, read `g/L` at 0.22 in a box grown over the line below: both are units, and only a second look tells.
    const read = { ...DOUBTED, text: 'g/L', confidence: 0.22 };
    expect((await withDoubtedNumbersReadAgain([read], PAGE, engine({ half: ['mg/L'], sharp: ['mg/L'] }).recognizer))[0]).toMatchObject({ text: 'mg/L', confidence: SECOND_READING_CONFIDENCE });
    for (const readings of [{ half: ['mg/l'], sharp: ['mg/l'] }, { half: ['1/2'], sharp: ['1/2'] }, { half: ['mg/L'], sharp: ['ug/L'] }]) {
      expect(await withDoubtedNumbersReadAgain([read], PAGE, engine(readings).recognizer)).toEqual([read]);
    }
  });

  it('leaves the words as they are with an engine that reads no single lines', async () => {
    const { recognizer } = engine({});
    const { recognizeLine: _, ...pageOnly } = recognizer;
    expect(await withDoubtedNumbersReadAgain([DOUBTED], PAGE, pageOnly)).toEqual([DOUBTED]);
  });
});

describe('withMisshapenRangesReadAgain', () => {
  const range = (text: string, confidence: number): RecognizedWord => ({ ...DOUBTED, text, confidence });

  it('reads again a range with a colon among its digits or its bounds high to low, however sure, and takes the range both renderings read', async () => {
    for (const [read, printed] of [
      ['8:6-5.1', '3.6-5.1'],
      ['150-2.5', '1.0-2.5'],
      ['3;6-5.1', '3.6-5.1'],
    ] as const) {
      const { recognizer } = engine({ half: [printed], sharp: [printed] });
      const [word] = await withMisshapenRangesReadAgain([range(read, 0.92)], PAGE, recognizer);
      expect(word).toMatchObject({ text: printed, confidence: SECOND_READING_CONFIDENCE });
    }
  });

  it('leaves well-formed ranges, numbers and times unread', async () => {
    const { recognizer, calls } = engine({ half: ['3.6-5.1'], sharp: ['3.6-5.1'] });
    const words = [range('3.6-5.1', 0.5), range('1.001-1.035', 0.9), range('08:15', 0.9), range('5.4', 0.3), range('1-8.', 0.9), range('6 - 24', 0.9)];
    expect(await withMisshapenRangesReadAgain(words, PAGE, recognizer)).toEqual(words);
    expect(calls).toEqual([]);
  });

  it('leaves out a misshapen range no rendering settles on a range low to high, and keeps one a rendering reads as the page reading did', async () => {
    const misshapen = range('8:6-5.1', 0.68);
    const beside = range('g/dL', 0.9);
    for (const readings of [
      { half: ['5.1-3.6'], sharp: ['5.1-3.6'] },
      { half: ['36'], sharp: ['36'] },
      { half: ['3.6-5.1'], sharp: ['3.6-5.7'] },
      { half: ['3.6', '-5.1'], sharp: ['3.6-5.1'] },
    ]) {
      expect(await withMisshapenRangesReadAgain([misshapen, beside], PAGE, engine(readings).recognizer)).toEqual([beside]);
    }
    for (const readings of [{ half: ['8:6-5.1'] }, { half: ['3.6'], sharp: ['8:6-5.1'] }, { half: ['3.6-5.1'], sharp: ['3.6-5.7'], halfSharp: ['8:6-5.1'] }]) {
      expect(await withMisshapenRangesReadAgain([misshapen, beside], PAGE, engine(readings).recognizer)).toEqual([misshapen, beside]);
    }
    // An engine that reads no single lines leaves every word as read.
    const { recognizeLine: _, ...pageOnly } = engine({}).recognizer;
    expect(await withMisshapenRangesReadAgain([misshapen], PAGE, pageOnly)).toEqual([misshapen]);
  });
});

describe('withInkBesideRead', () => {
  const RANGE_PIECE: RecognizedWord = { text: '6-5.1', x0: 100, y0: 100, x1: 160, y1: 130, baseline: 130, lineHeight: 38, confidence: 0.93 };
  const LEFT_INK = { x0: 70, y0: 100, x1: 92, y1: 130 };

  /** An engine that reads the region it is given as the texts given, each over the whole region. */
  function lineEngine(texts: string[]): { recognizer: TextRecognizer; regions: ImageRegion[] } {
    const regions: ImageRegion[] = [];
    const recognizer: TextRecognizer = {
      engine: 'fake',
      recognize: async () => [],
      recognizeLine: async (_image, region) => {
        regions.push(region);
        return texts.map((text) => ({ ...region, text, confidence: 0.92 }));
      },
    };
    return { recognizer, regions };
  }

  it('reads the word and the ink beside it as one line, and takes the word grown by glyphs on the ink side, flagged', async () => {
    const { recognizer, regions } = lineEngine(['3.6-5.1']);
    const read = await withInkBesideRead(RANGE_PIECE, LEFT_INK, PAGE, recognizer);
    expect(regions).toEqual([{ x0: 70, y0: 100, x1: 160, y1: 130 }]);
    expect(read).toMatchObject({ text: '3.6-5.1', x0: 70, x1: 160, baseline: 130, confidence: SECOND_READING_CONFIDENCE });
    const right = await withInkBesideRead({ ...RANGE_PIECE, text: 'Cholestero' }, { x0: 165, y0: 104, x1: 175, y1: 130 }, PAGE, lineEngine(['Cholesterol']).recognizer);
    expect(right).toMatchObject({ text: 'Cholesterol', x0: 100, x1: 175 });
  });

  it('grows the box over the ink where the line reads as the word itself: ink of its own that the box clipped', async () => {
    // `HDL` boxed without the stroke of its `L`, which read alone is another `L`.
    const hdl = { ...RANGE_PIECE, text: 'HDL' };
    const read = await withInkBesideRead(hdl, { x0: 165, y0: 100, x1: 178, y1: 130 }, PAGE, lineEngine(['HDL']).recognizer);
    expect(read).toEqual({ ...hdl, x1: 178 });
  });

  it('reads the word and the ink together from the other renderings where the page’s scale reads them as something else, and takes the word grown where two agree', async () => {
    // URW's Nimbus Mono `7.5`: the `7` read, its `.5` left beside it; the two read `Es` at the page's scale.
    const seven: RecognizedWord = { text: '7', x0: 100, y0: 100, x1: 114, y1: 130, baseline: 130, lineHeight: 38, confidence: 0.55 };
    const ink = { x0: 118, y0: 100, x1: 140, y1: 130 };
    const renderingsRead = (readings: { half: string[]; sharp: string[] }): TextRecognizer => ({
      engine: 'fake',
      recognize: async () => [],
      recognizeLine: async (image, region) => {
        // The page; the half-size rendering; the thresholded one; none of the others reads a word.
        const texts = image === PAGE ? ['Es'] : image.dpi === 150 && !isBlackAndWhite(image) ? readings.half : image.dpi === 300 && isBlackAndWhite(image) ? readings.sharp : [];
        return texts.map((text) => ({ text, x0: region.x0, y0: region.y0, x1: region.x1, y1: region.y1, confidence: 0.9 }));
      },
    });
    const read = await withInkBesideRead(seven, ink, PAGE, renderingsRead({ half: ['7.5'], sharp: ['7.5'] }));
    // Flagged as a settled reading is, and no surer than the word it grew from.
    expect(read).toMatchObject({ text: '7.5', confidence: 0.55 });
    expect((await withInkBesideRead({ ...seven, confidence: 0.95 }, ink, PAGE, renderingsRead({ half: ['7.5'], sharp: ['7.5'] })))?.confidence).toBe(SECOND_READING_CONFIDENCE);
    // Renderings that agree on a number with a mark no value prints, or on one that is not the word grown, give nothing.
    for (const agreed of ['7s5', '1.5', '75.']) expect(await withInkBesideRead(seven, ink, PAGE, renderingsRead({ half: [agreed], sharp: [agreed] }))).toBeUndefined();
    expect(await withInkBesideRead(seven, ink, PAGE, renderingsRead({ half: ['7.5'], sharp: ['7.6'] }))).toBeUndefined();
  });

  it('takes nothing where the line reads as several words, changes the word, grows it on the other side, adds no letter or digit, or reads nothing', async () => {
    for (const texts of [['3.', '6-5.1'], ['3.6-5.7'], ['6-5.13'], ['.6-5.1'], []]) {
      expect(await withInkBesideRead(RANGE_PIECE, LEFT_INK, PAGE, lineEngine(texts).recognizer)).toBeUndefined();
    }
    const { recognizeLine: _, ...pageOnly } = lineEngine(['3.6-5.1']).recognizer;
    expect(await withInkBesideRead(RANGE_PIECE, LEFT_INK, PAGE, pageOnly)).toBeUndefined();
  });
});
