import type { DiagnosticReport, Observation } from 'fhir/r4';
import { classifyDocument } from '../../../../functions/lab/classify-document';
import { toFhirBundle } from '../../../../functions/lab/fhir/to-fhir-bundle';
import { extractLabResults } from '../../../../functions/lab/parsers';
import { readPdfText } from '../../../../functions/lab/pdf-text';
import type { ExtractionResults } from '../../../../functions/lab/results-schema';
import { generateQuestReport } from '../../../fixtures/labs/generator';
import { validateFhirBundle } from './fhir-structure';

async function extracted(seed: number) {
  const { pdf, truth } = await generateQuestReport({
    seed,
    panels: ['COMPREHENSIVE METABOLIC PANEL', 'LIPID PANEL, STANDARD', 'ESTRADIOL', 'URINALYSIS, COMPLETE'],
    censorRate: 1,
    flagRate: 0.3,
    textRate: 0,
  });
  const pages = await readPdfText(pdf);
  const classification = classifyDocument(pages);
  if (classification.kind !== 'lab_report') throw new Error('not a lab report');
  const results: ExtractionResults = {
    jobId: 'job-1',
    status: 'completed',
    verification: { dobFound: true, dobMatches: true },
    ...extractLabResults(pages, classification),
  };
  return { results, truth };
}

let counter = 0;
const newId = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

describe('toFhirBundle', () => {
  it('builds a structurally valid R4 collection Bundle with one Observation per result', async () => {
    const { results } = await extracted(41);
    const bundle = toFhirBundle(results, { issued: '2025-03-16T11:30:00Z', newId });
    expect(validateFhirBundle(bundle)).toEqual([]);
    const resources = bundle.entry!.map((e) => e.resource!);
    const report = resources[0] as DiagnosticReport;
    const observations = resources.slice(1) as Observation[];
    const count = results.panels.reduce((n, p) => n + p.panelResults.length, 0);
    expect(bundle.type).toBe('collection');
    expect(report.resourceType).toBe('DiagnosticReport');
    expect(report.category![0]!.coding![0]).toMatchObject({ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB' });
    expect(report.result).toHaveLength(count);
    expect(observations).toHaveLength(count);
    expect(observations.every((o) => o.effectiveDateTime === results.dateCollected)).toBe(true);
    expect(observations.every((o) => o.category![0]!.coding![0]!.code === 'laboratory')).toBe(true);
  });

  it('codes each Observation with LOINC, the printed name, UCUM quantities, ranges and interpretation', async () => {
    const { results } = await extracted(42);
    const observations = toFhirBundle(results, { newId }).entry!.slice(1).map((e) => e.resource as Observation);
    const glucose = observations.find((o) => o.code.text === 'GLUCOSE' && o.code.coding?.[0]?.code === '2345-7')!;
    expect(glucose.code.coding![0]).toMatchObject({ system: 'http://loinc.org', display: 'Glucose [Mass/volume] in Serum or Plasma' });
    expect(glucose.valueQuantity).toMatchObject({ unit: 'mg/dL', system: 'http://unitsofmeasure.org', code: 'mg/dL' });
    expect(glucose.referenceRange![0]).toMatchObject({ low: { value: 65, code: 'mg/dL' }, high: { value: 99 }, text: '65-99' });

    const estradiol = observations.find((o) => o.code.text === 'ESTRADIOL')!;
    expect(estradiol.valueQuantity).toMatchObject({ value: 15, comparator: '<', code: 'pg/mL' });

    const color = observations.find((o) => o.code.text === 'COLOR')!;
    expect(typeof color.valueString).toBe('string');
    expect(color.valueQuantity).toBeUndefined();

    const flagged = results.panels.flatMap((p) => p.panelResults).filter((r) => r.flag);
    expect(flagged.length).toBeGreaterThan(0);
    for (const r of flagged) {
      const o = observations.find((x) => x.code.text === r.biomarker && String(x.valueQuantity?.value ?? x.valueString) === String(r.resultType === 'string' ? r.resultValue : Number(r.resultValue)))!;
      expect(o.interpretation![0]!.coding![0]).toMatchObject({ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: r.flag });
    }
  });

  it('keeps an unmapped unit as text without inventing a UCUM code', () => {
    const results: ExtractionResults = {
      jobId: 'job-2',
      status: 'completed',
      labName: 'Quest Diagnostics',
      dateCollected: '2025-03-14',
      verification: { dobFound: false, dobMatches: null },
      mergeActions: [],
      validationFlags: [],
      summary: { pagesRead: 1, pagesRecognised: 0, panelsFound: 1, resultsFound: 1, lowConfidenceResults: 0, rowsSkipped: [] },
      panels: [
        {
          panelName: 'OMEGACHECK(R)',
          panelCode: 'omegacheck-r',
          dateCollected: '2025-03-14',
          pageNumber: 1,
          panelResults: [
            {
              biomarker: 'OMEGA-3 INDEX',
              resultValue: '7.1',
              resultType: 'numeric',
              resultUnit: '% by wt odd',
              loincCode: null,
              loincMatchType: 'not_found',
              ucumCode: null,
              ucumMatchMethod: 'not_found',
              minRefRangeValue: null,
              maxRefRangeValue: null,
              referenceRangeText: null,
              pageNumber: 1,
              provenance: { pageNumber: 1, bbox: [48, 500, 400, 510], sourceText: 'OMEGA-3 INDEX 7.1 % by wt odd', source: 'text' },
              confidence: 0.9,
            },
          ],
        },
      ],
    };
    const bundle = toFhirBundle(results, { newId });
    expect(validateFhirBundle(bundle)).toEqual([]);
    const observation = bundle.entry![1]!.resource as Observation;
    expect(observation.valueQuantity).toEqual({ value: 7.1, unit: '% by wt odd' });
    expect(observation.code).toEqual({ text: 'OMEGA-3 INDEX' });
  });

  it('carries no patient identifiers and no subject unless the caller supplies an opaque one', async () => {
    const { results, truth } = await extracted(43);
    const json = JSON.stringify(toFhirBundle(results, { newId }));
    for (const phi of truth.phi) expect(json).not.toContain(phi);
    expect(json).not.toContain('"subject"');
    expect(json).not.toContain('Patient');
    const withSubject = toFhirBundle(results, { newId, subject: { reference: 'Patient/opaque-1' } });
    expect(validateFhirBundle(withSubject)).toEqual([]);
    expect((withSubject.entry![1]!.resource as Observation).subject).toEqual({ reference: 'Patient/opaque-1' });
  });

  it('the validator catches what it is meant to catch', () => {
    const broken = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: 'urn:uuid:00000000-0000-4000-8000-000000000001', resource: { resourceType: 'DiagnosticReport', status: 'final', code: { text: 'x' }, result: [{ reference: 'urn:uuid:missing' }] } },
        {
          fullUrl: 'urn:uuid:00000000-0000-4000-8000-000000000002',
          resource: { resourceType: 'Observation', status: 'done', code: { text: 'x' }, valueQuantity: { value: 1, code: 'mg' }, referenceRange: [{}] },
        },
      ],
    };
    expect(validateFhirBundle(broken)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('status'),
        expect.stringContaining('qty-3'),
        expect.stringContaining('empty object'),
        expect.stringContaining('must reference an Observation'),
      ]),
    );
  });
});
