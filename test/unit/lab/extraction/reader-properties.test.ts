import fc from 'fast-check';
import { classifyDocument } from '../../../../functions/lab/classify-document';
import { collectionDates } from '../../../../functions/lab/parsers/collection-dates';
import { findDates, firstDate } from '../../../../functions/lab/parsers/dates';
import { pageLines } from '../../../../functions/lab/parsers/layout';
import { readTables } from '../../../../functions/lab/parsers/table';
import { readPdfText } from '../../../../functions/lab/pdf-text';
import { syntheticPage } from './synthetic-page';
import { type Chunking, type DrawnLine, type FontName, renderLines } from './render-lines';

/**
 * Properties of the reader over spaces of inputs (fast-check): every US date form reads back as the
 * date it prints; a table reads the same whatever the chunking, font, size and column placement; and
 * the document check never contradicts itself, whatever a page holds.
 */

const isoDate = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2068-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Every form US lab reports print a date in, with optional time and zone. */
function printed(iso: string, form: number, time: number, zone: number): string {
  const [y, m, d] = iso.split('-') as [string, string, string];
  const short = (n: string) => String(Number(n));
  const forms = [
    `${m}/${d}/${y}`,
    `${short(m)}/${short(d)}/${y.slice(2)}`,
    `${m}-${d}-${y}`,
    `${y}-${m}-${d}`,
    `${MONTHS[Number(m) - 1]} ${short(d)}, ${y}`,
    `${d}-${MONTHS[Number(m) - 1]}-${y}`,
  ];
  const times = ['', ' 06:21', ' 06:21:00', ' 03:32 PM', ' 0621'];
  const zones = ['', ' PST', ' EST', ' UTC', ' CT', ' ET', ' Local'];
  return `${forms[form]}${times[time]}${time === 0 ? '' : zones[zone]}`;
}

const dateForm = fc.record({ iso: isoDate, form: fc.integer({ min: 0, max: 5 }), time: fc.integer({ min: 0, max: 4 }), zone: fc.integer({ min: 0, max: 6 }) });

describe('dates', () => {
  it('read back as the date they print, in every US form, with or without time and zone', () => {
    fc.assert(
      fc.property(dateForm, ({ iso, form, time, zone }) => {
        expect(firstDate(`Collected: ${printed(iso, form, time, zone)}`)).toBe(iso);
      }),
      { numRuns: 300 },
    );
  });

  it('are found on the label line, under the label, and never from a received, reported or previous-result label', () => {
    fc.assert(
      fc.property(dateForm, isoDate, fc.constantFrom('Collected', 'Date Collected', 'Collection Date', 'Date/Time Collected', 'Specimen Collected'), fc.boolean(), (collected, other, label, below) => {
        const text = printed(collected.iso, collected.form, collected.time, collected.zone);
        const page = syntheticPage(
          1,
          below
            ? [
                [700, [[36, label], [200, 'Date Received'], [330, 'Date Reported']]],
                [690, [[36, text], [200, printed(other, 0, 0, 0)], [330, printed(other, 3, 1, 1)]]],
                [660, [[36, 'Previous Result and Date'], [200, printed(other, 1, 0, 0)]]],
              ]
            : [
                [700, [[36, `${label}: ${text}`], [250, `Received: ${printed(other, 0, 1, 3)}`]]],
                [660, [[36, 'GLUCOSE'], [200, '95'], [250, `88 ${printed(other, 0, 0, 0)}`]]],
              ],
        );
        expect(collectionDates(pageLines(page))).toEqual([collected.iso]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('a result table', () => {
  const TESTS: Array<[string, string, string, string]> = [
    ['GLUCOSE', '95', '65-99', 'mg/dL'],
    ['CREATININE', '1.02', '0.60-1.29', 'mg/dL'],
    ['HEMOGLOBIN', '13.8', '13.2-17.1', 'g/dL'],
    ['TSH', '1.92', '0.40-4.50', 'mIU/L'],
    ['HDL CHOLESTEROL', '54', '> OR = 40', 'mg/dL'],
    ['ESTRADIOL', '<15', '< OR = 39', 'pg/mL'],
    ['NITRITE', 'NEGATIVE', 'NEGATIVE', ''],
  ];

  const rendering = fc.record({
    chunking: fc.constantFrom<Chunking>('cell', 'word', 'glyph', 'line'),
    font: fc.constantFrom<FontName>('Helvetica', 'Times', 'Courier'),
    size: fc.constantFrom(7, 7.5, 8, 9, 10),
    spacing: fc.double({ min: 1.25, max: 2, noNaN: true }),
    valueX: fc.integer({ min: 200, max: 260 }),
    rangeGap: fc.integer({ min: 60, max: 110 }),
    header: fc.boolean(),
    rows: fc.subarray(TESTS, { minLength: 2 }),
  });

  it('reads the same rows whatever the chunking, font, size, spacing, columns and header', async () => {
    await fc.assert(
      fc.asyncProperty(rendering, async (r) => {
        const rangeX = r.valueX + r.rangeGap;
        const step = r.size * r.spacing;
        const lines: DrawnLine[] = [
          [760, [[36, 'Quest Diagnostics', 12]]],
          [740, [[36, 'Collected: 03/14/2025']]],
        ];
        let y = 710;
        if (r.header) {
          lines.push([y, [[36, 'Test Name'], [r.valueX, 'Result'], [rangeX, 'Reference Range']]]);
          y -= step * 1.5;
        }
        lines.push([y, [[36, 'CHEMISTRY PANEL']]]);
        for (const [name, value, range, unit] of r.rows) {
          y -= step;
          lines.push([y, [[46, name], [r.valueX, value], [rangeX, unit === '' ? range : `${range} ${unit}`]]]);
        }
        const pages = await readPdfText(await renderLines([lines], { chunking: r.chunking, font: r.font, size: r.size }));
        const read = readTables(pages).panels.flatMap((p) => p.results.map((x) => [x.biomarker, x.value.resultValue, x.range?.text ?? null, x.unit]));
        expect(read).toEqual(r.rows.map(([name, value, range, unit]) => [name, value, range, unit === '' ? null : unit]));
      }),
      { numRuns: 40 },
    );
  });
});

describe('the document check', () => {
  const LAB_NAMES = ['Quest Diagnostics', 'Labcorp', 'Laboratory Corporation of America', 'BioReference Laboratories', 'Sonora Quest Laboratories', 'ARUP Laboratories', 'Community Hospital Lab'];
  const LINES = [
    'Dear Patient, your results are ready:',
    'Sincerely, the clinic',
    'Explanation of Benefits',
    'Test Name   Result   Reference Range',
    'GLUCOSE   95   65-99 mg/dL',
    'HEMOGLOBIN   13.8   13.2-17.1 g/dL',
    'Collected: 03/14/2025',
    'Collected: 01/10/2025',
    'Reported: 03/15/2025',
    'Amount Due: $25.00',
    'Page 1 of 1',
  ];

  it('never names Quest or Labcorp with non_supported_lab, and says non_lab_document only when no row can be read', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LAB_NAMES, ...LINES), { minLength: 1, maxLength: 10 }), (texts) => {
        const page = syntheticPage(
          1,
          texts.map((text, i) => [740 - i * 14, text.split('   ').map((cell, c) => [36 + c * 160, cell] as [number, string])]),
        );
        const classification = classifyDocument([page]);
        if (classification.kind !== 'invalid') return;
        if (classification.reason === 'non_supported_lab') expect(['Quest Diagnostics', 'Labcorp']).not.toContain(classification.detectedLab);
        if (classification.reason === 'non_lab_document') expect(readTables([page]).panels).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('findDates', () => {
  it('finds nothing in ranges, ratios and times alone', () => {
    expect(findDates('65-99 mg/dL 1:80 06:21:00 PST 3.5-5.2 0.40-4.50')).toEqual([]);
  });
});
