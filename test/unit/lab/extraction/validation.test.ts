import { applyCodes, validatePanels } from '../../../../functions/lab/parsers';
import type { LabPanel, PanelResult } from '../../../../functions/lab/results-schema';

/** Validation flags on hand-built panels: each check fires on its case and stays quiet otherwise. */

function result(biomarker: string, resultValue: string, resultUnit: string | null, extra: Partial<PanelResult> = {}): PanelResult {
  return {
    biomarker,
    resultValue,
    resultType: 'numeric',
    resultUnit,
    loincCode: null,
    loincMatchType: null,
    ucumCode: null,
    ucumMatchMethod: null,
    minRefRangeValue: null,
    maxRefRangeValue: null,
    referenceRangeText: null,
    pageNumber: 1,
    provenance: { pageNumber: 1, bbox: [0, 0, 1, 1], sourceText: `${biomarker} ${resultValue}`, source: 'text' },
    confidence: 1,
    ...extra,
  };
}

function panel(panelName: string, results: PanelResult[]): LabPanel {
  return { panelName, panelCode: 'p', dateCollected: '2025-03-14', pageNumber: 1, panelResults: results };
}

function flags(panels: LabPanel[]) {
  return validatePanels(applyCodes(panels)).map((f) => [f.code, f.biomarker]);
}

const range = (min: number | null, max: number | null, text: string) => ({ minRefRangeValue: min, maxRefRangeValue: max, referenceRangeText: text });

describe('validatePanels', () => {
  it('flags values outside the physiological bounds Hale scores with, converting units first', () => {
    expect(
      flags([
        panel('CMP', [
          result('GLUCOSE', '5000', 'mg/dL'),
          result('ALBUMIN', '42', 'g/L'),
          result('PROTEIN, TOTAL', '7.0', 'g/dL'),
        ]),
        panel('CBC', [result('WBC', '6.1', 'x10E3/uL'), result('WHITE BLOOD CELL COUNT', '6100', 'cells/uL')]),
        panel('CBC', [result('RBC', '4.8', 'x10E6/uL'), result('ALBUMIN', '420', 'g/L')]),
      ]),
    ).toEqual([
      ['value_outside_physiological_bounds', 'GLUCOSE'],
      ['duplicate_test', 'WHITE BLOOD CELL COUNT'],
      ['value_outside_physiological_bounds', 'ALBUMIN'],
      ['duplicate_test', 'ALBUMIN'],
    ]);
  });

  it('compares a value printed without a unit only with bounds that have none: its unit is unread, not a fraction', () => {
    // HbA1c's bounds are in %: 5.4 with no unit read is no 540 %, and 99 none either; nothing to compare.
    expect(flags([panel('HEMOGLOBIN A1c', [result('HEMOGLOBIN A1c', '5.4', null), result('HEMOGLOBIN A1c', '99', null)])]).filter(([code]) => code !== 'duplicate_test')).toEqual([]);
    expect(flags([panel('HEMOGLOBIN A1c', [result('HEMOGLOBIN A1c', '99', '%')])])).toEqual([['value_outside_physiological_bounds', 'HEMOGLOBIN A1c']]);
  });

  it('flags negative amounts and percentages above 100', () => {
    expect(flags([panel('X', [result('FERRITIN', '-3', 'ng/mL'), result('HEMATOCRIT', '140', '%')])])).toEqual([
      ['value_outside_physiological_bounds', 'FERRITIN'],
      ['value_outside_physiological_bounds', 'HEMATOCRIT'],
    ]);
  });

  it('flags a printed flag the printed range contradicts, and an out-of-range value without a flag', () => {
    expect(
      flags([
        panel('CMP', [
          result('SODIUM', '140', 'mmol/L', { ...range(135, 146, '135-146'), flag: 'H' }),
          result('POTASSIUM', '5.9', 'mmol/L', range(3.5, 5.3, '3.5-5.3')),
          result('CHLORIDE', '104', 'mmol/L', { ...range(98, 110, '98-110') }),
          result('CALCIUM', '8.1', 'mg/dL', { ...range(8.6, 10.3, '8.6-10.3'), flag: 'L' }),
          result('TRIGLYCERIDES', '150', 'mg/dL', { ...range(null, 150, '<150'), flag: 'H' }),
          result('HOMOCYSTEINE', '13.5', 'umol/L', range(null, 13.5, '< OR = 13.5')),
        ]),
      ]),
    ).toEqual([
      ['flag_inconsistent_with_range', 'SODIUM'],
      ['flag_inconsistent_with_range', 'POTASSIUM'],
    ]);
  });

  it('flags a differential that does not add up to about 100', () => {
    const differential = (values: string[]) =>
      panel(
        'CBC',
        ['NEUTROPHILS', 'LYMPHOCYTES', 'MONOCYTES', 'EOSINOPHILS', 'BASOPHILS'].map((name, i) => result(name, values[i]!, '%')),
      );
    expect(flags([differential(['58', '30', '8', '4', '0'])])).toEqual([]);
    expect(flags([differential(['58.4', '30.1', '8.0', '2.9', '0.7'])])).toEqual([]);
    expect(flags([differential(['85', '30', '8', '4', '0'])])).toEqual([['differential_sum_off', null]]);
  });

  it('flags a unit that does not measure what the LOINC code measures', () => {
    expect(flags([panel('CMP', [result('CALCIUM', '2.4', 'mmol/L'), result('CALCIUM (SI)', '2.4', 'mmol/L')])])).toEqual([
      ['unit_invalid_for_loinc', 'CALCIUM'],
    ]);
  });

  it('flags a test reported twice', () => {
    expect(flags([panel('CMP', [result('GLUCOSE', '92', 'mg/dL')]), panel('GLUCOSE', [result('Glucose', '93', 'mg/dL')])])).toEqual([
      ['duplicate_test', 'Glucose'],
    ]);
  });
});
