import type * as R4 from 'fhir/r4';
import fc from 'fast-check';
import { classifyDocument } from '../../../../functions/lab/classify-document';
import type { FhirBundle, FhirDiagnosticReport, FhirObservation } from '../../../../functions/lab/fhir/fhir-schemas';
import { FhirBundleSchema } from '../../../../functions/lab/fhir/fhir-schemas';
import { interpretationCode } from '../../../../functions/lab/fhir/interpretation';
import { toFhirBundle } from '../../../../functions/lab/fhir/to-fhir-bundle';
import { extractLabResults } from '../../../../functions/lab/parsers';
import { readPdfText } from '../../../../functions/lab/pdf-text';
import type { ExtractionResults, LabPanel, PanelResult, ResultOperator } from '../../../../functions/lab/results-schema';
import { generateLabcorpReport, generateQuestReport } from '../../../fixtures/labs/generator';
import { r4Problems, US_CORE_CHECKS, usCoreProblems } from './fhir-validation';

async function extracted(seed: number, vendor: 'quest' | 'labcorp' = 'quest') {
  const { pdf, truth } =
    vendor === 'quest'
      ? await generateQuestReport({
          seed,
          panels: ['COMPREHENSIVE METABOLIC PANEL', 'LIPID PANEL, STANDARD', 'ESTRADIOL', 'URINALYSIS, COMPLETE', 'HEMOGLOBIN A1c'],
          censorRate: 1,
          flagRate: 0.3,
          textRate: 0.3,
        })
      : await generateLabcorpReport({ seed });
  const pages = await readPdfText(pdf);
  const classification = classifyDocument(pages);
  if (classification.kind !== 'lab_report') throw new Error('not a lab report');
  const results: ExtractionResults = { jobId: 'job-1', status: 'completed', verification: { dobFound: true, dobMatches: true }, ...extractLabResults(pages, classification) };
  return { results, truth };
}

let counter = 0;
const newId = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
const SUBJECT = { reference: 'Patient/opaque-1' };
const ISSUED = '2025-03-16T11:30:00Z';

const resources = (bundle: FhirBundle) => bundle.entry.map((entry) => entry.resource);
const observations = (bundle: FhirBundle) => resources(bundle).filter((r): r is FhirObservation => r.resourceType === 'Observation');
const reports = (bundle: FhirBundle) => resources(bundle).filter((r): r is FhirDiagnosticReport => r.resourceType === 'DiagnosticReport');

function result(overrides: Partial<PanelResult>): PanelResult {
  return {
    biomarker: 'TEST',
    resultValue: '1',
    resultType: 'numeric',
    resultUnit: 'mg/dL',
    loincCode: null,
    loincMatchType: 'not_found',
    ucumCode: 'mg/dL',
    ucumMatchMethod: 'static_map',
    minRefRangeValue: null,
    maxRefRangeValue: null,
    referenceRangeText: null,
    pageNumber: 1,
    provenance: { pageNumber: 1, bbox: [48, 500, 400, 510], sourceText: 'TEST', source: 'text' },
    confidence: 1,
    ...overrides,
  };
}

function resultsWith(panels: { panelName: string; panelResults: PanelResult[] }[]): ExtractionResults {
  return {
    jobId: 'job-2',
    status: 'completed',
    labName: 'Quest Diagnostics',
    dateCollected: '2025-03-14',
    verification: { dobFound: false, dobMatches: null },
    mergeActions: [],
    validationFlags: [],
    summary: { pagesRead: 1, pagesRecognised: 0, panelsFound: panels.length, resultsFound: panels.reduce((n, p) => n + p.panelResults.length, 0), lowConfidenceResults: 0, rowsSkipped: [] },
    panels: panels.map((p): LabPanel => ({ ...p, panelCode: 'x', dateCollected: '2025-03-14', pageNumber: 1 })),
  };
}

function onlyObservation(r: PanelResult, subject = true): FhirObservation {
  const bundle = toFhirBundle(resultsWith([{ panelName: 'SOME PANEL', panelResults: [r] }]), { newId, issued: ISSUED, ...(subject ? { subject: SUBJECT } : {}) });
  expect(r4Problems(bundle)).toEqual([]);
  return observations(bundle)[0]!;
}

describe('toFhirBundle: validity', () => {
  it.each([
    [41, 'quest'],
    [42, 'quest'],
    [7, 'labcorp'],
  ] as const)('seed %i (%s): valid R4 without a subject, valid R4 and US Core 6.1.0 with one', async (seed, vendor) => {
    const { results } = await extracted(seed, vendor);
    const plain = toFhirBundle(results, { issued: ISSUED, newId });
    expect(r4Problems(plain)).toEqual([]);
    expect(FhirBundleSchema.parse(plain)).toEqual(plain);
    expect(JSON.stringify(plain)).not.toMatch(/"subject"|"profile"/);

    const usCore = toFhirBundle(results, { issued: ISSUED, newId, subject: SUBJECT });
    expect(r4Problems(usCore)).toEqual([]);
    expect(usCoreProblems(usCore)).toEqual([]);
    const count = results.panels.reduce((n, p) => n + p.panelResults.length, 0);
    expect(observations(usCore)).toHaveLength(count);
    expect(reports(usCore)).toHaveLength(results.panels.length);
    expect(resources(usCore).every((r) => JSON.stringify(r.subject) === JSON.stringify(SUBJECT))).toBe(true);
  });

  it('the US Core checks fail a bundle without a subject, and name each check', async () => {
    const { results } = await extracted(43);
    const problems = usCoreProblems(toFhirBundle(results, { newId }));
    expect(problems).toEqual(expect.arrayContaining([expect.stringContaining('Observation.subject 1..1'), expect.stringContaining('DiagnosticReport.subject 1..1')]));
    expect(US_CORE_CHECKS.length).toBeGreaterThanOrEqual(15);
  });

  it('the R4 validator catches what it is meant to catch', () => {
    const broken = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: 'urn:uuid:00000000-0000-4000-8000-000000000002', resource: { resourceType: 'Observation', status: 'done', code: { text: 'x' }, valueQuantity: { value: 1, code: 'mg' }, referenceRange: [{ high: { value: 5, comparator: '<' } }] } },
        { fullUrl: 'urn:uuid:00000000-0000-4000-8000-000000000003', resource: { resourceType: 'Observation', status: 'final', valueString: 'x', dataAbsentReason: { coding: [{ code: 'x', meaning: 'y' }] } } },
      ],
    };
    const problems = r4Problems(broken).join('\n');
    expect(problems).toMatch(/status done is not one of the allowed values/);
    expect(problems).toMatch(/qty-3/);
    expect(problems).toMatch(/referenceRange\[0\]\.high: comparator/);
    expect(problems).toMatch(/Missing required property "code"|code.*required/);
    expect(problems).toMatch(/meaning/);
  });

  it('an identifier subject is a logical Patient reference', async () => {
    const { results } = await extracted(44);
    const bundle = toFhirBundle(results, { newId, subject: { type: 'Patient', identifier: { system: 'urn:oid:2.16.840.1.113883.19.5', value: 'MRN-1' } } });
    expect(r4Problems(bundle)).toEqual([]);
    expect(usCoreProblems(bundle)).toEqual([]);
  });

  it('claims no US Core profile when the report prints no collection date', () => {
    const undated = resultsWith([{ panelName: 'TSH', panelResults: [result({})] }]);
    undated.dateCollected = null;
    undated.panels[0]!.dateCollected = null;
    const bundle = toFhirBundle(undated, { newId, subject: SUBJECT });
    expect(r4Problems(bundle)).toEqual([]);
    expect(resources(bundle).every((r) => r.meta === undefined && r.effectiveDateTime === undefined && r.subject !== undefined)).toBe(true);
  });

  it('carries no patient identifiers from the document', async () => {
    const { results, truth } = await extracted(45);
    const json = JSON.stringify(toFhirBundle(results, { newId, subject: SUBJECT }));
    for (const phi of truth.phi) expect(json).not.toContain(phi);
  });

  it('its types are R4 types', () => {
    const bundle: R4.Bundle = toFhirBundle(resultsWith([{ panelName: 'TSH', panelResults: [result({})] }]), { newId });
    expect(bundle.resourceType).toBe('Bundle');
  });
});

describe('toFhirBundle: DiagnosticReport per panel', () => {
  it('codes known panels with their LOINC panel code, a one-test panel with its test, others as a laboratory report', () => {
    const bundle = toFhirBundle(
      resultsWith([
        { panelName: 'COMPREHENSIVE METABOLIC PANEL', panelResults: [result({ biomarker: 'GLUCOSE', loincCode: '2345-7' }), result({ biomarker: 'SODIUM' })] },
        { panelName: 'Lipid Panel', panelResults: [result({ biomarker: 'Cholesterol, Total', loincCode: '2093-3' }), result({})] },
        { panelName: 'HEMOGLOBIN A1c', panelResults: [result({ biomarker: 'HEMOGLOBIN A1c', loincCode: '4548-4', ucumCode: '%', resultUnit: '%' })] },
        { panelName: 'OMEGACHECK(R)', panelResults: [result({}), result({})] },
      ]),
      { newId, subject: SUBJECT },
    );
    expect(reports(bundle).map((r) => [r.code.coding?.[0]?.code, r.code.text])).toEqual([
      ['24323-8', 'COMPREHENSIVE METABOLIC PANEL'],
      ['24331-1', 'Lipid Panel'],
      ['4548-4', 'HEMOGLOBIN A1c'],
      ['11502-2', 'OMEGACHECK(R)'],
    ]);
    expect(reports(bundle).map((r) => r.result?.length)).toEqual([2, 2, 1, 2]);
    expect(usCoreProblems(bundle)).toEqual([]);
  });
});

describe('toFhirBundle: values, units, ranges and interpretation', () => {
  it('keeps the printed unit and its UCUM code, also /HPF → /[HPF]', () => {
    const o = onlyObservation(result({ biomarker: 'WBC', resultValue: '3', resultUnit: '/HPF', ucumCode: '/[HPF]', minRefRangeValue: 0, maxRefRangeValue: 5, referenceRangeText: '0-5' }));
    expect(o.valueQuantity).toEqual({ value: 3, unit: '/HPF', system: 'http://unitsofmeasure.org', code: '/[HPF]' });
    expect(o.referenceRange).toEqual([{ low: { value: 0, unit: '/HPF', system: 'http://unitsofmeasure.org', code: '/[HPF]' }, high: { value: 5, unit: '/HPF', system: 'http://unitsofmeasure.org', code: '/[HPF]' }, text: '0-5' }]);
  });

  it('keeps an unmapped unit as text without inventing a code', () => {
    const o = onlyObservation(result({ resultValue: '7.1', resultUnit: '% by wt', ucumCode: null }));
    expect(o.valueQuantity).toEqual({ value: 7.1, unit: '% by wt' });
  });

  it('an exclusive printed bound stays in text only; inclusive bounds become low/high', () => {
    expect(onlyObservation(result({ resultValue: '5.6', maxRefRangeValue: 5.7, referenceRangeText: '<5.7' })).referenceRange).toEqual([{ text: '<5.7' }]);
    expect(onlyObservation(result({ resultValue: '62', minRefRangeValue: 59, referenceRangeText: '>59' })).referenceRange).toEqual([{ text: '>59' }]);
    expect(onlyObservation(result({ resultValue: '20', maxRefRangeValue: 39, referenceRangeText: '< OR = 39' })).referenceRange?.[0]).toMatchObject({ high: { value: 39 }, text: '< OR = 39' });
    expect(onlyObservation(result({ resultValue: '61', minRefRangeValue: 60, referenceRangeText: '> OR = 60' })).referenceRange?.[0]).toMatchObject({ low: { value: 60 }, text: '> OR = 60' });
    expect(onlyObservation(result({ resultType: 'string', resultValue: 'NEGATIVE', referenceRangeText: 'NEGATIVE', ucumCode: null, resultUnit: null })).referenceRange).toEqual([{ text: 'NEGATIVE' }]);
  });

  it('a censored value carries its comparator', () => {
    const o = onlyObservation(result({ resultValue: '<15', resultType: 'range', resultOperator: '<', maxRefRangeValue: 39, referenceRangeText: '< OR = 39' }));
    expect(o.valueQuantity).toMatchObject({ value: 15, comparator: '<' });
    expect(o.interpretation?.[0]?.coding?.[0]?.code).toBe('N');
  });

  it('interprets every numeric result that has a range: printed flag first, else the value against the range', () => {
    const code = (r: Partial<PanelResult>) => onlyObservation(result(r)).interpretation?.[0]?.coding?.[0];
    expect(code({ resultValue: '5.7', maxRefRangeValue: 5.7, referenceRangeText: '<5.7' })).toMatchObject({ code: 'H', system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation' });
    expect(code({ resultValue: '77', minRefRangeValue: 65, maxRefRangeValue: 99, referenceRangeText: '65-99' })?.code).toBe('N');
    expect(code({ resultValue: '36', minRefRangeValue: 60, referenceRangeText: '> OR = 60' })?.code).toBe('L');
    expect(code({ resultValue: '36', minRefRangeValue: 60, referenceRangeText: '> OR = 60', flag: 'LL' })?.code).toBe('LL');
    expect(code({ resultValue: '<10', resultType: 'range', resultOperator: '<', minRefRangeValue: 5, maxRefRangeValue: 20, referenceRangeText: '5-20' })?.code).toBe('IND');
    expect(code({ resultValue: '7' })).toBeUndefined();
  });

  it('a word standing for a missing result is a dataAbsentReason, with the word as text', () => {
    const o = onlyObservation(result({ resultType: 'string', resultValue: 'TNP', minRefRangeValue: 65, maxRefRangeValue: 99, referenceRangeText: '65-99' }));
    expect(o.valueString).toBeUndefined();
    expect(o.dataAbsentReason).toEqual({ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/data-absent-reason', code: 'not-performed', display: 'Not Performed' }], text: 'TNP' });
    expect(o.interpretation).toBeUndefined();
  });
});

describe('toFhirBundle: what the results flag', () => {
  it('notes on each Observation the validation flags of its result, and none on the others', () => {
    const doubted = result({ biomarker: 'ALT (SGPT)', resultValue: '18', pageNumber: 1, provenance: { pageNumber: 1, bbox: [48, 500, 400, 510], sourceText: 'ALT 18', source: 'ocr', ocrConfidence: 0.43 } });
    const other = result({ biomarker: 'AST (SGOT)', resultValue: '16' });
    const results = resultsWith([{ panelName: 'SOME PANEL', panelResults: [doubted, other] }]);
    results.validationFlags = [
      { code: 'low_ocr_confidence', message: 'ALT (SGPT): the scan was read with confidence 0.43; check 18 against the document', panelName: 'SOME PANEL', biomarker: 'ALT (SGPT)', pageNumber: 1 },
      // Another panel's flag of a test of the same name is not this result's.
      { code: 'low_ocr_confidence', message: 'AST (SGOT): check it', panelName: 'OTHER PANEL', biomarker: 'AST (SGOT)', pageNumber: 1 },
    ];
    const bundle = toFhirBundle(results, { newId, issued: ISSUED, subject: SUBJECT });
    expect(r4Problems(bundle)).toEqual([]);
    const [alt, ast] = observations(bundle);
    expect(alt!.note).toEqual([{ text: 'low_ocr_confidence: ALT (SGPT): the scan was read with confidence 0.43; check 18 against the document' }]);
    expect(ast!.note).toBeUndefined();
    expect(FhirBundleSchema.parse(bundle)).toEqual(bundle);
  });
});

describe('interpretationCode (property)', () => {
  const bound = fc.option(fc.integer({ min: -50, max: 50 }), { nil: null });
  const operator = fc.option(fc.constantFrom<ResultOperator>('<', '<=', '>', '>='), { nil: undefined });

  /** Sample points of where a (censored) value may lie. */
  function possibleValues(v: number, op: ResultOperator | undefined): number[] {
    const near = [-1000, -1, -0.5, -1e-6, 0, 1e-6, 0.5, 1, 1000].map((d) => v + d);
    if (op === '<') return near.filter((x) => x < v);
    if (op === '<=') return near.filter((x) => x <= v);
    if (op === '>') return near.filter((x) => x > v);
    if (op === '>=') return near.filter((x) => x >= v);
    return [v];
  }

  it('N, H and L hold for every value the result may stand for; IND only when they differ', () => {
    fc.assert(
      fc.property(fc.integer({ min: -60, max: 60 }), operator, bound, bound, fc.boolean(), fc.boolean(), (v, op, min, max, minIn, maxIn) => {
        fc.pre(min !== null || max !== null);
        fc.pre(min === null || max === null || min <= max);
        const range = { min, max, minInclusive: minIn, maxInclusive: maxIn };
        const code = interpretationCode(result({ resultOperator: op }), v, range);
        const inside = (x: number) => (min === null || (minIn ? x >= min : x > min)) && (max === null || (maxIn ? x <= max : x < max));
        const above = (x: number) => max !== null && (maxIn ? x > max : x >= max);
        const below = (x: number) => min !== null && (minIn ? x < min : x <= min);
        const xs = possibleValues(v, op);
        if (code === 'N') return xs.every(inside);
        if (code === 'H') return xs.every(above);
        if (code === 'L') return xs.every(below);
        return code === 'IND' && !xs.every(inside) && !xs.every(above) && !xs.every(below);
      }),
    );
  });
});
