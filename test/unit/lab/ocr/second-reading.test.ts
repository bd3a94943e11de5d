import type { ImageRegion, PageImage, RecognizedWord, TextRecognizer } from '../../../../functions/lab/ocr/recognizer';
import { SECOND_READING_CONFIDENCE, thresholded, withDoubtedNumbersReadAgain, withMisshapenRangesReadAgain } from '../../../../functions/lab/ocr/second-reading';

const PAGE: PageImage = { width: 400, height: 200, dpi: 300, grey: new Uint8Array(400 * 200).fill(250) };
const DOUBTED: RecognizedWord = { text: '3843', x0: 100, y0: 100, x1: 160, y1: 130, baseline: 130, lineHeight: 38, confidence: 0.21 };

/**
 * An engine whose single-line readings are given per rendering: the half-size one (150 dpi) and the
 * thresholded one (300 dpi, black and white only), each a word 10 px inside the image it was handed.
 */
function engine(readings: { half?: string[]; sharp?: string[] }): { recognizer: TextRecognizer; calls: PageImage[] } {
  const calls: PageImage[] = [];
  const recognizer: TextRecognizer = {
    engine: 'fake',
    recognize: async () => [],
    recognizeLine: async (image: PageImage, region: ImageRegion) => {
      calls.push(image);
      expect(region).toEqual({ x0: 0, y0: 0, x1: image.width - 1, y1: image.height - 1 });
      const texts = (image.dpi === 150 ? readings.half : readings.sharp) ?? [];
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
    expect(calls[1]!.grey.every((g) => g === 0 || g === 255)).toBe(true);
  });

  it('keeps the first reading where the renderings disagree, read several words, or read none', async () => {
    for (const readings of [{ half: ['33.3'], sharp: ['38.3'] }, { half: ['33.3'], sharp: ['33', '3'] }, { half: [], sharp: ['33.3'] }, { half: ['33.3'], sharp: [] }]) {
      const { recognizer } = engine(readings);
      expect(await withDoubtedNumbersReadAgain([DOUBTED], PAGE, recognizer)).toEqual([DOUBTED]);
    }
  });

  it('reads no third time where the half-size rendering reads what the page reading did', async () => {
    const { recognizer, calls } = engine({ half: ['3843'], sharp: ['33.3'] });
    expect(await withDoubtedNumbersReadAgain([DOUBTED], PAGE, recognizer)).toEqual([DOUBTED]);
    expect(calls).toHaveLength(1);
  });

  it('reads again only doubted words of three characters or more holding a digit, and short unsure words of letters, in their order', async () => {
    const { recognizer, calls } = engine({ half: ['33.3'], sharp: ['33.3'] });
    const sure = { ...DOUBTED, text: '14.9', confidence: 0.95 };
    const letters = (text: string, confidence: number) => ({ ...DOUBTED, text, confidence });
    const words = [sure, { ...DOUBTED, text: '38' }, letters('Hemoglobin', 0.3), letters('Hgb', 0.9), letters('H', 0.3), letters('mg/dL', 0.3), DOUBTED];
    const read = await withDoubtedNumbersReadAgain(words, PAGE, recognizer);
    expect(read.map((w) => w.text)).toEqual(['14.9', '38', 'Hemoglobin', 'Hgb', 'H', 'mg/dL', '33.3']);
    expect(calls).toHaveLength(2);
  });

  it('takes the number both renderings read for a short word of letters the engine was unsure of, and nothing but a number', async () => {
    const bil = { ...DOUBTED, text: 'Bil', confidence: 0.55 };
    expect((await withDoubtedNumbersReadAgain([bil], PAGE, engine({ half: ['8.1'], sharp: ['8.1'] }).recognizer))[0]).toMatchObject({ text: '8.1', confidence: SECOND_READING_CONFIDENCE });
    const td = { ...DOUBTED, text: 'Td', confidence: 0.62 };
    expect((await withDoubtedNumbersReadAgain([td], PAGE, engine({ half: ['71'], sharp: ['71'] }).recognizer))[0]).toMatchObject({ text: '71' });
    // A unit or a flag read again as anything but a number, or where the renderings disagree, stays.
    for (const readings of [{ half: ['pg'], sharp: ['pg'] }, { half: ['8L'], sharp: ['8L'] }, { half: ['8.1'], sharp: ['8.7'] }]) {
      const read = { ...DOUBTED, text: 'Pg', confidence: 0.5 };
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

  it('leaves well-formed ranges, numbers and times unread, and a misshapen range read again as anything but a range low to high as read', async () => {
    const { recognizer, calls } = engine({ half: ['3.6-5.1'], sharp: ['3.6-5.1'] });
    const words = [range('3.6-5.1', 0.5), range('1.001-1.035', 0.9), range('08:15', 0.9), range('5.4', 0.3), range('1-8.', 0.9), range('6 - 24', 0.9)];
    expect(await withMisshapenRangesReadAgain(words, PAGE, recognizer)).toEqual(words);
    expect(calls).toEqual([]);
    for (const readings of [{ half: ['5.1-3.6'], sharp: ['5.1-3.6'] }, { half: ['36'], sharp: ['36'] }, { half: ['3.6-5.1'], sharp: ['3.6-5.7'] }, { half: ['3.6', '-5.1'], sharp: ['3.6-5.1'] }]) {
      const misshapen = range('8:6-5.1', 0.68);
      expect(await withMisshapenRangesReadAgain([misshapen], PAGE, engine(readings).recognizer)).toEqual([misshapen]);
    }
  });
});
