import fc from 'fast-check';
import { applyLoincFallback, isValidLoincCode } from '../../../../functions/lab/loinc/fallback';
import { LOINC_ROWS, mapToLoinc } from '../../../../functions/lab/loinc/map-to-loinc';
import type { LabPanel, PanelResult } from '../../../../functions/lab/results-schema';
import { isPrintedUnit, toUcum } from '../../../../functions/lab/ucum/to-ucum';

describe('toUcum', () => {
  it.each([
    ['mg/dL', 'mg/dL'],
    ['Thousand/uL', '10*3/uL'],
    ['x10E3/uL', '10*3/uL'],
    ['K/uL', '10*3/uL'],
    ['mEq/L', 'meq/L'],
    ['IU/L', '[IU]/L'],
    ['mL/min/1.73', 'mL/min/{1.73_m2}'],
    ['mg/dL (calc)', 'mg/dL'],
    ['(calc)', '1'],
    ['cells/uL', '/uL'],
    ['/HPF', '/[HPF]'],
  ])('maps the printed unit %s from the table to %s', (printed, code) => {
    expect(toUcum(printed)).toEqual({ ucumCode: code, ucumMatchMethod: 'static_map' });
  });

  it.each([
    ['x10E9/L', '10*9/L'],
    ['X10^3/uL', '10*3/uL'],
    ['x10⁹/L', '10*9/L'],
    ['Million/mm3', '10*6/mm3'],
    ['ng/mL (calc)', 'ng/mL'],
    ['µmol/L (calc)', 'umol/L'],
    ['μg/dL', 'ug/dL'],
    ['mcg/L', 'ug/L'],
    ['uIU/L', 'u[IU]/L'],
    ['mOsm/L', 'mosm/L'],
    ['mL/hr', 'mL/h'],
    ['mL/min/1.73m²', 'mL/min/{1.73_m2}'],
  ])('maps the systematic spelling %s by rule to %s', (printed, code) => {
    expect(toUcum(printed)).toEqual({ ucumCode: code, ucumMatchMethod: 'pattern_rule' });
  });

  it.each([
    ['pmol/L', 'pmol/L'],
    ['ng/dL', 'ng/dL'],
    ['ukat/L', 'ukat/L'],
    ['mmol/mol', 'mmol/mol'],
    ['fmol/L', 'fmol/L'],
  ])('builds %s from SI prefixes and base units', (printed, code) => {
    if (printed === 'ng/dL') {
      // In the printed-unit table already: the table wins.
      expect(toUcum(printed).ucumMatchMethod).toBe('static_map');
      return;
    }
    expect(toUcum(printed)).toEqual({ ucumCode: code, ucumMatchMethod: 'prefix_map' });
  });

  it('never reads a K as Kelvin', () => {
    for (const printed of ['K/uL', 'K/µL', 'K/mm3', 'k/uL']) expect(toUcum(printed).ucumCode).not.toMatch(/^K/);
    expect(toUcum('K')).toEqual({ ucumCode: null, ucumMatchMethod: 'not_found' });
  });

  it('says not_found for what it cannot read, and gives no unit to qualitative results', () => {
    expect(toUcum('bananas/cup')).toEqual({ ucumCode: null, ucumMatchMethod: 'not_found' });
    expect(toUcum('Pattern')).toEqual({ ucumCode: null, ucumMatchMethod: null });
    expect(toUcum(null)).toEqual({ ucumCode: null, ucumMatchMethod: null });
    expect(toUcum(null, { numeric: true })).toEqual({ ucumCode: '1', ucumMatchMethod: 'static_map' });
  });

  it('tells units from text results when splitting a Quest range cell', () => {
    expect(isPrintedUnit('/HPF')).toBe(true);
    expect(isPrintedUnit('mg/dL (calc)')).toBe(true);
    expect(isPrintedUnit('NEGATIVE')).toBe(false);
    expect(isPrintedUnit('NONE SEEN')).toBe(false);
  });

  it('never takes a unit with the next column\'s number after it for a unit, and prints nothing while deciding', () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const units = fc.constantFrom('cells/uL', 'mg/dL', 'ng/dL', 'Thousand/uL', 'IU/L', 'mL/min/1.73', '% of total Hgb', 'mcg/dL');
      const numbers = fc.oneof(fc.integer({ min: 0, max: 99_999 }).map(String), fc.double({ min: 0, max: 1000, noNaN: true }).map((x) => x.toFixed(1)));
      fc.assert(
        fc.property(units, numbers, (unit, number) => {
          expect(isPrintedUnit(unit)).toBe(true);
          expect(isPrintedUnit(`${unit} ${number}`)).toBe(false);
        }),
      );
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });
});

describe('mapToLoinc', () => {
  it('is exact when name, specimen and unit leave one code', () => {
    expect(mapToLoinc('GLUCOSE', { ucumCode: 'mg/dL', panelName: 'COMPREHENSIVE METABOLIC PANEL' })).toEqual({ loincCode: '2345-7', loincMatchType: 'exact' });
    expect(mapToLoinc('GLUCOSE', { ucumCode: null, panelName: 'URINALYSIS, COMPLETE' })).toEqual({ loincCode: '5792-7', loincMatchType: 'exact' });
    expect(mapToLoinc('WBC', { ucumCode: '/[HPF]', panelName: 'URINALYSIS, COMPLETE' })).toEqual({ loincCode: '5821-4', loincMatchType: 'exact' });
    expect(mapToLoinc('WBC', { ucumCode: '10*3/uL', panelName: 'CBC With Differential/Platelet' })).toEqual({ loincCode: '6690-2', loincMatchType: 'exact' });
  });

  it("codes Quest's urogenital chlamydia TMA, a qualitative result without a unit", () => {
    expect(mapToLoinc('CHLAMYDIA TRACHOMATIS RNA, TMA, UROGENITAL', { ucumCode: null })).toEqual({ loincCode: '43304-5', loincMatchType: 'exact' });
  });

  it('lets the unit choose between codes of one name (Lp(a) in mass or moles)', () => {
    expect(mapToLoinc('LIPOPROTEIN (a)', { ucumCode: 'nmol/L' })).toEqual({ loincCode: '43583-4', loincMatchType: 'exact' });
    expect(mapToLoinc('Lipoprotein (a)', { ucumCode: 'mg/dL' })).toEqual({ loincCode: '10835-7', loincMatchType: 'exact' });
  });

  it('treats Labcorp IU/L as U/L on enzymes and thousands per µL as counts per µL', () => {
    expect(mapToLoinc('ALT (SGPT)', { ucumCode: '[IU]/L' })).toEqual({ loincCode: '1742-6', loincMatchType: 'exact' });
    expect(mapToLoinc('ABSOLUTE NEUTROPHILS', { ucumCode: '/uL' })).toEqual({ loincCode: '751-8', loincMatchType: 'exact' });
    expect(mapToLoinc('TSH', { ucumCode: 'u[IU]/mL' })).toEqual({ loincCode: '3016-3', loincMatchType: 'exact' });
  });

  it('normalises spacing and case of printed names', () => {
    expect(mapToLoinc('Monocytes (Absolute)', { ucumCode: '10*3/uL' }).loincCode).toBe('742-7');
    expect(mapToLoinc('creatine kinase, total, serum', { ucumCode: 'U/L' }).loincCode).toBe('2157-6');
  });

  it('falls back to the serum/plasma or method-less default when the name is ambiguous, and says so', () => {
    expect(mapToLoinc('HEMOGLOBIN A1c', { ucumCode: '%' })).toEqual({ loincCode: '4548-4', loincMatchType: 'biomarker_only' });
    expect(mapToLoinc('eGFR If NonAfricn Am', { ucumCode: 'mL/min/{1.73_m2}' })).toEqual({ loincCode: '48642-3', loincMatchType: 'biomarker_only' });
    // Calcium in moles has its own row under another name; the printed name keeps the mass code.
    expect(mapToLoinc('CALCIUM', { ucumCode: 'mmol/L' })).toEqual({ loincCode: '17861-6', loincMatchType: 'biomarker_only' });
  });

  it('is not_found for names outside the table and never claims llm_fuzzy', () => {
    expect(mapToLoinc('OMEGA-3 INDEX', { ucumCode: '%' })).toEqual({ loincCode: null, loincMatchType: 'not_found' });
    const types = LOINC_ROWS.flatMap((row) => row.synonyms.map((s) => mapToLoinc(s, { ucumCode: row.exampleUcum }).loincMatchType));
    expect(types).not.toContain('llm_fuzzy');
    expect(types).not.toContain('not_found');
  });
});

describe('LOINC fallback port', () => {
  it('checks the LOINC mod-10 check digit (every code of the table passes; the research slip 33863-3 does not)', () => {
    expect(LOINC_ROWS.filter((r) => !isValidLoincCode(r.code))).toEqual([]);
    expect(isValidLoincCode('33863-3')).toBe(false);
    expect(isValidLoincCode('33863-2')).toBe(true);
    expect(isValidLoincCode('not-a-code')).toBe(false);
  });

  const result = (biomarker: string, loincMatchType: PanelResult['loincMatchType'], loincCode: string | null): PanelResult => ({
    biomarker,
    resultValue: '7.1',
    resultType: 'numeric',
    resultUnit: '%',
    loincCode,
    loincMatchType,
    ucumCode: '%',
    ucumMatchMethod: 'static_map',
    minRefRangeValue: null,
    maxRefRangeValue: null,
    referenceRangeText: null,
    pageNumber: 1,
    provenance: { pageNumber: 1, bbox: [0, 0, 1, 1], sourceText: `${biomarker} 7.1 %`, source: 'text' },
    confidence: 1,
  });
  const panels: LabPanel[] = [
    {
      panelName: 'OMEGACHECK(R)',
      panelCode: 'omegacheck-r',
      dateCollected: '2025-03-14',
      pageNumber: 1,
      panelResults: [result('OMEGA-3 INDEX', 'not_found', null), result('EPA', 'not_found', null), result('GLUCOSE', 'exact', '2345-7')],
    },
  ];

  it('marks accepted LLM suggestions llm_fuzzy, drops malformed ones and leaves table matches alone', async () => {
    const asked: string[] = [];
    const fallback = {
      suggest: async ({ biomarker }: { biomarker: string }) => {
        asked.push(biomarker);
        return biomarker === 'EPA' ? { loincCode: '12345-6' } : { loincCode: '33863-2' };
      },
    };
    const [panel] = await applyLoincFallback(panels, fallback);
    expect(asked).toEqual(['OMEGA-3 INDEX', 'EPA']);
    expect(panel!.panelResults.map((r) => [r.loincCode, r.loincMatchType])).toEqual([
      ['33863-2', 'llm_fuzzy'],
      [null, 'not_found'],
      ['2345-7', 'exact'],
    ]);
  });

  it('changes nothing without a fallback (the local default)', async () => {
    expect(await applyLoincFallback(panels, null)).toEqual(panels);
  });
});

it('a unitless printout (UCUM 1) never rules a LOINC code out', () => {
  expect(mapToLoinc('PH', { ucumCode: '1', panelName: 'URINALYSIS, COMPLETE' })).toEqual({ loincCode: '5803-2', loincMatchType: 'exact' });
  expect(mapToLoinc('A/G Ratio', { ucumCode: '1' })).toEqual({ loincCode: '1759-0', loincMatchType: 'exact' });
  expect(mapToLoinc('SPECIFIC GRAVITY', { ucumCode: '1', panelName: 'URINALYSIS, COMPLETE' })).toEqual({ loincCode: '5811-5', loincMatchType: 'exact' });
});
