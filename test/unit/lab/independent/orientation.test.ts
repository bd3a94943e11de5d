import { classifyDocument } from '../../../../functions/lab/classify-document';
import { uprightText } from '../../../../functions/lab/parsers/orientation';
import { readPdfText } from '../../../../functions/lab/pdf-text';
import { generateIndependentReport, independentOptions } from '../../../fixtures/labs/independent/generator';
import { scoreSet } from '../../../fixtures/labs/independent/score-set';

/** Pages whose text is not upright on the sheet (found by the independent generator's `turned` pages). */

describe('uprightText', () => {
  const view: [number, number, number, number] = [0, 0, 612, 792];

  it('leaves upright text where it is', () => {
    const { items, width, height } = uprightText([{ str: 'GLUCOSE', transform: [8, 0, 0, 8, 40, 700], width: 30, height: 8 }], view);
    expect(items[0]).toEqual({ str: 'GLUCOSE', x: 40, y: 700, width: 30, height: 8 });
    expect([width, height]).toEqual([612, 792]);
  });

  it('turns a landscape report drawn a quarter turn round on a portrait sheet back to landscape', () => {
    // Display point (x 40, y 500) of a 792 × 612 landscape page is sheet point (612 − 500, 40), text running up the sheet.
    const runs = [
      { str: 'GLUCOSE', transform: [0, 8, -8, 0, 112, 40], width: 30, height: 8 },
      { str: '92', transform: [0, 8, -8, 0, 112, 250], width: 9, height: 8 },
    ];
    const { items, width, height } = uprightText(runs, view);
    expect(items.map((i) => [i.str, i.x, i.y])).toEqual([
      ['GLUCOSE', 40, 500],
      ['92', 250, 500],
    ]);
    expect([width, height]).toEqual([792, 612]);
  });
});

describe('a landscape report stored as a turned portrait sheet', () => {
  it('is classified and read like any other page', async () => {
    const report = await generateIndependentReport({ ...independentOptions(0, 'quest-physician'), shape: 'turned' });
    const pages = await readPdfText(report.pdf);
    expect(classifyDocument(pages)).toMatchObject({ kind: 'lab_report', vendor: 'quest' });
    const { score } = await scoreSet([report]);
    expect(score.mismatches).toEqual([]);
    expect(score.truthCount).toBeGreaterThan(5);
  });
});
