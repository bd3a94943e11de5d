import fc from 'fast-check';
import { ucum } from '../../../../functions/reference/build/ucum';
import { readSourceCsv } from '../../../../scripts/csv';
import { FAILURE_KIND_OPTIONS } from '../../../fixtures/labs/rendering/failure-kinds';
import { DOCUMENT_KINDS, FAILURE_KINDS, OTHER_LABS, type RenderingOptions, renderingOptionsArbitrary } from '../../../fixtures/labs/rendering/options';
import { type RenderingReport, renderingReport } from '../../../fixtures/labs/rendering/report';
import { renderingSetOptions } from '../../../fixtures/labs/rendering/set';
import { LABCORP_PANELS, QUEST_PANELS } from '../../../fixtures/labs/rendering/tests';
import { PAGE_SIZES } from '../../../fixtures/labs/rendering/typesetter';
import { compact, readLines, shownStrings } from './read-back';

/**
 * The rendering fixture generator itself (not the lab reader): what the truth says is printed is on
 * the pages pdf.js reads back, the text really is cut as declared, pages have the declared size,
 * dates print in the declared form, identifiers are listed, the failure kinds of issue 11 and the
 * documents to refuse show what they claim. Property-based over the options with fast-check.
 */

const RUNS = { numRuns: 8 };

const DATE_FORMS: Record<string, { pattern: string; iso: (m: RegExpMatchArray) => string }> = {
  'MM/DD/YYYY': { pattern: '(\\d{2})/(\\d{2})/(\\d{4})', iso: (m) => `${m[3]}-${m[1]}-${m[2]}` },
  'M/D/YY': { pattern: '([1-9]\\d?)/([1-9]\\d?)/(\\d{2})', iso: (m) => `20${m[3]}-${m[1]!.padStart(2, '0')}-${m[2]!.padStart(2, '0')}` },
  'MM-DD-YYYY': { pattern: '(\\d{2})-(\\d{2})-(\\d{4})', iso: (m) => `${m[3]}-${m[1]}-${m[2]}` },
  'YYYY-MM-DD': { pattern: '(\\d{4})-(\\d{2})-(\\d{2})', iso: (m) => `${m[1]}-${m[2]}-${m[3]}` },
  'DD/MM/YYYY': { pattern: '(\\d{2})/(\\d{2})/(\\d{4})', iso: (m) => `${m[3]}-${m[2]}-${m[1]}` },
};
const TIMES: Record<RenderingOptions['date']['time'], string> = { none: '', 'HH:mm': ' \\d{2}:\\d{2}', 'HH:mm:ss': ' \\d{2}:\\d{2}:\\d{2}', 'hh:mm AM': ' (0\\d|1[0-2]):\\d{2} [AP]M', HHmm: ' \\d{4}' };

function documentText(pages: ReadonlyArray<{ lines: string[] }>): string {
  return pages.map((p) => p.lines.join('')).join('');
}

async function render(o: RenderingOptions): Promise<RenderingReport & { pages: Awaited<ReturnType<typeof readLines>> }> {
  const report = await renderingReport(o);
  return { ...report, pages: await readLines(report.pdf) };
}

describe('the rendering generator', () => {
  it('prints every value, unit, range, name and identifier of the truth on its page, on pages of the declared size, and the collection date in the declared form', async () => {
    await fc.assert(
      fc.asyncProperty(renderingOptionsArbitrary(), async (options) => {
        const { truth, pages } = await render(options);
        expect(pages).toHaveLength(truth.pageCount);
        const [width, height] = PAGE_SIZES[truth.options.page];
        for (const page of pages) expect([page.width, page.height]).toEqual([width, height]);
        for (const result of truth.panels.flatMap((p) => p.results)) {
          const text = pages[result.pageNumber - 1]!.lines.join('');
          expect(text).toContain(compact(result.resultValue));
          for (const word of result.biomarker.split(' ')) expect(text).toContain(compact(word));
          if (result.referenceRangeText) expect(text).toContain(compact(result.referenceRangeText));
          for (const piece of result.resultUnit?.split(/(?<=1\.)|\s+/) ?? []) expect(text).toContain(compact(piece));
        }
        const all = documentText(pages);
        for (const identifier of truth.phi) expect(all).toContain(compact(identifier));
        expect(truth.dimensions.pages).toBe(truth.pageCount >= 3 ? '3+' : String(truth.pageCount));
        if (truth.printedCollectionDate === null) return;
        const o = truth.options;
        const form = DATE_FORMS[truth.dimensions['date form']!]!;
        const zone = o.date.time !== 'none' && o.date.zone !== 'none' ? ` ${o.date.zone}` : '';
        const match = new RegExp(`^${form.pattern}${TIMES[o.date.time]}${zone}$`).exec(truth.printedCollectionDate);
        expect(match).not.toBeNull();
        expect(form.iso(match!)).toBe(truth.collectionDate);
        expect(pages[0]!.lines.join('')).toContain(compact(match![0].split(' ')[0]!));
      }),
      RUNS,
    );
  });

  it('cuts the text into PDF text items as the chunking says', async () => {
    await fc.assert(
      fc.asyncProperty(renderingOptionsArbitrary(), async (options) => {
        const { pdf, truth } = await renderingReport(options);
        const shown = (await shownStrings(pdf)).flat();
        expect(shown.length).toBeGreaterThan(0);
        const results = truth.panels.flatMap((p) => p.results).length;
        switch (truth.options.chunking) {
          case 'glyph':
            for (const s of shown) expect([...s]).toHaveLength(1);
            break;
          case 'word':
            for (const s of shown) expect(s).not.toMatch(/\s/);
            break;
          case 'cell':
            for (const s of shown) expect(s).not.toMatch(/\S {2,}\S/);
            expect(shown.some((s) => s.includes(' '))).toBe(true);
            break;
          case 'line':
            // Every result's line is one item: its name and cells joined by runs of spaces.
            expect(shown.filter((s) => /\S {2,}\S/.test(s)).length).toBeGreaterThanOrEqual(results);
            break;
          case 'mixed':
            break;
        }
      }),
      RUNS,
    );
  });

  it('is pure: the same options give the same bytes and the same truth', async () => {
    await fc.assert(
      fc.asyncProperty(renderingOptionsArbitrary(), async (options) => {
        const [a, b] = [await renderingReport(options), await renderingReport(options)];
        expect(Buffer.from(a.pdf).equals(Buffer.from(b.pdf))).toBe(true);
        expect(a.truth).toEqual(b.truth);
      }),
      { numRuns: 3 },
    );
  });
});

/** A seeded option set turned into one failure kind or document kind. */
function optionsWith(extra: Partial<RenderingOptions>, seed: number): RenderingOptions {
  const [base] = fc.sample(fc.noBias(renderingOptionsArbitrary()), { seed, numRuns: 1 });
  return { ...base!, failureKind: 'none', kind: 'report', ...extra };
}

/** A check over a few seeds: the rest of the options varies around the kind under test. */
function overSeeds(check: (seed: number) => Promise<void>): Promise<void> {
  return fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), check), { numRuns: 2 });
}

describe('the failure kinds of issue 11', () => {
  it('an older Labcorp layout with a Date/Time Collected label row and 2024-09-25 06:21:00 PST below it', async () => {
    await overSeeds(async (seed) => {
      const { truth, pages } = await render(optionsWith({ failureKind: 'legacy-iso-date-row' }, seed));
      const lines = pages[0]!.lines;
      const label = lines.findIndex((l) => l.startsWith('Date/TimeCollected'));
      expect(label).toBeGreaterThanOrEqual(0);
      expect(lines[label + 1]).toMatch(/^2024-09-2506:21:00PST/);
      expect(truth.vendor).toBe('labcorp');
      expect(truth.collectionDate).toBe('2024-09-25');
      expect(truth.dimensions['failure kind']).toBe('legacy-iso-date-row');
    });
  });

  it('a Quest patient export drawn one text item per cell', async () => {
    await overSeeds(async (seed) => {
      const { truth, pdf } = await renderingReport(optionsWith({ failureKind: 'export-one-item-per-cell' }, seed));
      expect(truth.dimensions).toMatchObject({ layout: 'quest-patient-export', chunking: 'cell' });
      const shown = (await shownStrings(pdf)).flat();
      for (const result of truth.panels.flatMap((p) => p.results).filter((r) => r.flag === null)) expect(shown).toContain(result.resultValue);
    });
  });

  it('rows drawn as single text items, the columns joined by runs of spaces', async () => {
    await overSeeds(async (seed) => {
      const { truth, pdf } = await renderingReport(optionsWith({ failureKind: 'rows-joined-by-spaces' }, seed));
      expect(truth.dimensions.chunking).toBe('line');
      const shown = (await shownStrings(pdf)).flat();
      const first = truth.panels[0]!.results[0]!;
      expect(shown.some((s) => s.includes(first.resultValue) && /\S {2,}\S/.test(s))).toBe(true);
    });
  });

  it("a Labcorp page 2 whose repeated banner stands right above a panel's name", async () => {
    await overSeeds(async (seed) => {
      const { truth, pages } = await render(optionsWith({ failureKind: 'page-banner-above-panel', panelCount: 3 }, seed));
      const panel = truth.panels.find((p) => p.pageNumber === 2)!;
      const lines = pages[1]!.lines;
      const title = lines.indexOf(compact(panel.panelName));
      expect(lines[title - 1]).toMatch(/^SpecimenID:\[REDACTED\]Sex:FemaleOrderingPhysician:/);
      expect(truth.phi).not.toContain('[REDACTED]');
    });
  });

  it('a text-result row (HIV Screen 4th Generation wRfx, Non Reactive) right before another panel', async () => {
    await overSeeds(async (seed) => {
      const { truth, pages } = await render(optionsWith({ failureKind: 'text-result-before-panel' }, seed));
      const hiv = truth.panels.find((p) => p.panelName === 'HIV Ab/p24 Ag with Reflex')!.results[0]!;
      expect(hiv).toMatchObject({ biomarker: 'HIV Screen 4th Generation wRfx', resultType: 'string' });
      const lines = pages[hiv.pageNumber - 1]!.lines;
      // The row's last line (its name may wrap, the value on either line) is followed by the next panel's title.
      const row = lines.findLastIndex((l) => l.includes('wRfx') || l.includes(compact(hiv.resultValue)));
      expect(lines[row + 1]).toBe(compact('Comp. Metabolic Panel (14)'));
    });
  });

  it('Quest units % of total Hgb and mg/dL (calc) without a range, and HEPATITIS C ANTIBODY', async () => {
    await overSeeds(async (seed) => {
      const { truth } = await render(optionsWith({ failureKind: 'quest-units-and-names' }, seed));
      const results = truth.panels.flatMap((p) => p.results);
      expect(results).toContainEqual(expect.objectContaining({ biomarker: 'HEMOGLOBIN A1c', resultUnit: '% of total Hgb', ucumCode: '%' }));
      expect(results).toContainEqual(expect.objectContaining({ biomarker: 'LDL-CHOLESTEROL', resultUnit: 'mg/dL (calc)', referenceRangeText: null }));
      expect(results).toContainEqual(expect.objectContaining({ biomarker: 'HEPATITIS C ANTIBODY', loincCode: '16128-1' }));
    });
  });

  it('Labcorp Iron Bind.Cap.(TIBC)', async () => {
    await overSeeds(async (seed) => {
      const { truth } = await render(optionsWith({ failureKind: 'labcorp-tibc' }, seed));
      expect(truth.panels.flatMap((p) => p.results)).toContainEqual(expect.objectContaining({ biomarker: 'Iron Bind.Cap.(TIBC)', loincCode: '2500-7' }));
    });
  });
});

describe('documents to refuse', () => {
  it.each(OTHER_LABS)('%s: another laboratory, named, never Quest Diagnostics or Labcorp', async (otherLab) => {
    await overSeeds(async (seed) => {
      const { truth, pages } = await render(optionsWith({ kind: 'other-lab', otherLab }, seed));
      expect(truth.expected).toEqual({ status: 'failed', errorType: 'non_supported_lab', detectedLab: otherLab });
      expect(truth.vendor).toBeNull();
      const text = documentText(pages);
      expect(text).toContain(compact(otherLab));
      expect(text).not.toMatch(/QuestDiagnostics|labcorp/i);
    });
  });

  it.each(['letter', 'insurance-eob'] as const)('a non-lab document (%s) names Quest or Labcorp and expects non_lab_document', async (nonLab) => {
    await overSeeds(async (seed) => {
      const { truth, pages } = await render(optionsWith({ kind: 'non-lab', nonLab }, seed));
      expect(truth.expected).toEqual({ status: 'failed', errorType: 'non_lab_document' });
      expect(truth.panels).toEqual([]);
      expect(documentText(pages)).toMatch(/QuestDiagnostics|Labcorp/);
      for (const identifier of truth.phi) expect(documentText(pages)).toContain(compact(identifier));
    });
  });

  it('concatenated visits print two collection dates after collection labels', async () => {
    await overSeeds(async (seed) => {
      const { truth, pages } = await render(optionsWith({ kind: 'multiple-dates', panelCount: 4, date: { form: 'MM/DD/YYYY', time: 'none', zone: 'none', label: 'Date Collected', placement: 'same-line' } }, seed));
      expect(truth.expected).toEqual({ status: 'failed', errorType: 'multiple_collection_dates' });
      expect(new Set(truth.collectionDates).size).toBe(2);
      const text = documentText(pages);
      for (const iso of truth.collectionDates) {
        const [y, m, d] = iso.split('-');
        expect(text).toContain(`DateCollected:${m}/${d}/${y}`);
      }
    });
  });

  it('a non-US document prints its dates day first, the day above 12', async () => {
    await overSeeds(async (seed) => {
      const { truth } = await render(optionsWith({ kind: 'non-us-dates' }, seed));
      expect(truth.expected).toEqual({ status: 'failed', errorType: 'non_us_document' });
      const [y, m, d] = truth.collectionDate.split('-');
      expect(Number(d)).toBeGreaterThan(12);
      expect(truth.printedCollectionDate?.startsWith(`${d}/${m}/${y}`)).toBe(true);
    });
  });

  it.each(['cancelled', 'pending', 'cover-page'] as const)('a Quest or Labcorp report with no result rows (%s)', async (noResults) => {
    await overSeeds(async (seed) => {
      const { truth, pages } = await render(optionsWith({ kind: 'no-results', noResults }, seed));
      expect(truth.expected).toEqual({ status: 'failed', errorType: 'no_results_found' });
      expect(truth.panels).toEqual([]);
      expect(documentText(pages)).toMatch(/QuestDiagnostics|labcorp/i);
    });
  });
});

describe('the truth tables', () => {
  const loinc = new Set(readSourceCsv('loinc-common-labs.csv').map((r) => r.loinc_code));
  const units = new Map(readSourceCsv('unit-to-ucum.csv').map((r) => [r.printed_unit, r.ucum_code]));
  const tests = [...QUEST_PANELS, ...LABCORP_PANELS].flatMap((p) => p.tests);

  it('codes every test with a LOINC code of data/sources/loinc-common-labs.csv (or none)', () => {
    for (const test of tests) if (test.loinc !== null) expect(loinc).toContain(test.loinc);
  });

  it('gives each printed unit the UCUM code of data/sources/unit-to-ucum.csv, and every code is valid UCUM', () => {
    for (const test of tests) {
      if (test.ucum !== null) expect(ucum.validateUnitString(test.ucum).status).toBe('valid');
      // `(calc)` marks a calculated result, not another unit; `% of total Hgb` has no row, its code is
      // the example unit of its LOINC code 4548-4 (`%`).
      if (test.unit === null || test.unit === '% of total Hgb') continue;
      expect([test.unit, units.get(test.unit) ?? units.get(test.unit.replace(/ \(calc\)$/, ''))]).toEqual([test.unit, test.ucum]);
    }
  });
});

describe('the benchmark set', () => {
  it('holds every failure kind and every kind of document to refuse, from seeded options', () => {
    const options = renderingSetOptions(120, 3);
    expect(options).toEqual(renderingSetOptions(120, 3));
    const kinds = new Set(options.map((o) => o.kind));
    const failures = new Set(options.map((o) => o.failureKind));
    for (const kind of DOCUMENT_KINDS) expect(kinds).toContain(kind);
    for (const kind of FAILURE_KINDS) expect(failures).toContain(kind);
    expect(Object.keys(FAILURE_KIND_OPTIONS).sort()).toEqual(FAILURE_KINDS.filter((k) => k !== 'none').sort());
  });
});
