/**
 * A structural validator for the FHIR R4 resources Hale exports (Bundle, DiagnosticReport,
 * Observation): required elements, value sets of the coded elements, primitive formats, the
 * invariants qty-3 (a unit code needs its system), obs-3 (a reference range has low, high or text),
 * SimpleQuantity (no comparator in ranges), obs-6 (no dataAbsentReason beside a value), resolvable
 * references and FHIR JSON's ban on null, empty strings, arrays and objects. Returns the problems.
 */

const DATE_TIME = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00)))?)?)?$/;
const INSTANT = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00))$/;
const URN_UUID = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const OBSERVATION_STATUS = ['registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown'];
const REPORT_STATUS = ['registered', 'partial', 'preliminary', 'final', 'amended', 'corrected', 'appended', 'cancelled', 'entered-in-error', 'unknown'];
const BUNDLE_TYPE = ['document', 'message', 'transaction', 'transaction-response', 'batch', 'batch-response', 'history', 'searchset', 'collection'];
const COMPARATOR = ['<', '<=', '>=', '>'];
const INTERPRETATION = ['H', 'L', 'HH', 'LL', 'A', 'AA', 'N', 'HU', 'LU', 'U', 'D', 'B', 'W'];
const VALUE_KEYS = ['valueQuantity', 'valueCodeableConcept', 'valueString', 'valueBoolean', 'valueInteger', 'valueRange', 'valueRatio', 'valueSampledData', 'valueTime', 'valueDateTime', 'valuePeriod'];

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function validateFhirBundle(bundle: unknown): string[] {
  const problems: string[] = [];
  const problem = (path: string, message: string): void => {
    problems.push(`${path}: ${message}`);
  };

  const walk = (value: unknown, path: string) => {
    if (value === null) problem(path, 'null is not allowed in FHIR JSON');
    else if (value === '') problem(path, 'empty string');
    else if (Array.isArray(value)) {
      if (value.length === 0) problem(path, 'empty array');
      for (const [i, v] of value.entries()) walk(v, `${path}[${i}]`);
    } else if (isObject(value)) {
      if (Object.keys(value).length === 0) problem(path, 'empty object');
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined) problem(`${path}.${k}`, 'undefined');
        else walk(v, `${path}.${k}`);
      }
    }
  };
  walk(bundle, 'Bundle');

  const coding = (c: unknown, path: string, system?: string, codes?: string[]) => {
    if (!isObject(c)) {
      problem(path, 'Coding must be an object');
      return;
    }
    if (typeof c.system !== 'string' || !/^https?:\/\//.test(c.system)) problem(path, 'Coding.system must be a URI');
    if (typeof c.code !== 'string' || c.code.trim() !== c.code) problem(path, 'Coding.code must be a trimmed string');
    if (system && c.system !== system) problem(path, `Coding.system must be ${system}`);
    if (codes && !codes.includes(c.code as string)) problem(path, `code ${String(c.code)} not in the value set`);
  };
  const concept = (cc: unknown, path: string, system?: string, codes?: string[]) => {
    if (!isObject(cc)) {
      problem(path, 'CodeableConcept must be an object');
      return;
    }
    if (!cc.text && !Array.isArray(cc.coding)) problem(path, 'CodeableConcept needs coding or text');
    if (cc.coding !== undefined) {
      if (!Array.isArray(cc.coding)) problem(path, 'coding must be an array');
      else
        for (const [i, c] of cc.coding.entries()) coding(c, `${path}.coding[${i}]`, system, codes);
    }
  };
  const quantity = (q: unknown, path: string, simple: boolean) => {
    if (!isObject(q)) {
      problem(path, 'Quantity must be an object');
      return;
    }
    if (typeof q.value !== 'number' || !Number.isFinite(q.value)) problem(path, 'Quantity.value must be a finite number');
    if (q.comparator !== undefined && (simple || !COMPARATOR.includes(q.comparator as string))) problem(path, 'comparator not allowed here');
    if (q.code !== undefined && q.system === undefined) problem(path, 'qty-3: a unit code needs a system');
  };

  if (!isObject(bundle)) return ['Bundle: not an object'];
  if (bundle.resourceType !== 'Bundle') problem('Bundle', 'resourceType must be Bundle');
  if (!BUNDLE_TYPE.includes(bundle.type as string)) problem('Bundle.type', 'required, from the bundle-type value set');
  if (bundle.timestamp !== undefined && !INSTANT.test(String(bundle.timestamp))) problem('Bundle.timestamp', 'must be an instant');
  const entries = Array.isArray(bundle.entry) ? bundle.entry : [];
  const byUrl = new Map<string, Json>();
  entries.forEach((entry, i) => {
    const path = `Bundle.entry[${i}]`;
    if (!isObject(entry) || !isObject(entry.resource)) {
      problem(path, 'entry needs a resource');
      return;
    }
    if (typeof entry.fullUrl !== 'string' || !URN_UUID.test(entry.fullUrl)) problem(path, 'fullUrl must be urn:uuid:<uuid>');
    else if (byUrl.has(entry.fullUrl)) problem(path, 'duplicate fullUrl');
    else byUrl.set(entry.fullUrl, entry.resource);
  });

  for (const [i, entry] of entries.entries()) {
    const resource = (entry as Json).resource as Json;
    const path = `Bundle.entry[${i}].resource`;
    if (resource.resourceType === 'Observation') {
      if (!OBSERVATION_STATUS.includes(resource.status as string)) problem(`${path}.status`, 'required, from observation-status');
      concept(resource.code, `${path}.code`);
      for (const [k, c] of ((resource.category as unknown[] | undefined) ?? []).entries()) concept(c, `${path}.category[${k}]`);
      if (resource.effectiveDateTime !== undefined && !DATE_TIME.test(String(resource.effectiveDateTime))) problem(`${path}.effectiveDateTime`, 'not a dateTime');
      if (resource.issued !== undefined && !INSTANT.test(String(resource.issued))) problem(`${path}.issued`, 'not an instant');
      const values = VALUE_KEYS.filter((k) => resource[k] !== undefined);
      if (values.length > 1) problem(path, 'only one value[x]');
      if (values.length === 1 && resource.dataAbsentReason !== undefined) problem(path, 'obs-6: dataAbsentReason beside a value');
      if (values.length === 0 && resource.dataAbsentReason === undefined) problem(path, 'neither a value nor a dataAbsentReason');
      if (resource.valueQuantity !== undefined) quantity(resource.valueQuantity, `${path}.valueQuantity`, false);
      if (resource.valueString !== undefined && typeof resource.valueString !== 'string') problem(`${path}.valueString`, 'must be a string');
      for (const [k, c] of ((resource.interpretation as unknown[] | undefined) ?? []).entries()) {
        concept(c, `${path}.interpretation[${k}]`, 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', INTERPRETATION);
      }
      (resource.referenceRange as Json[] | undefined)?.forEach((r, k) => {
        const rp = `${path}.referenceRange[${k}]`;
        if (r.low === undefined && r.high === undefined && r.text === undefined) problem(rp, 'obs-3: needs low, high or text');
        if (r.low !== undefined) quantity(r.low, `${rp}.low`, true);
        if (r.high !== undefined) quantity(r.high, `${rp}.high`, true);
      });
    } else if (resource.resourceType === 'DiagnosticReport') {
      if (!REPORT_STATUS.includes(resource.status as string)) problem(`${path}.status`, 'required, from diagnostic-report-status');
      concept(resource.code, `${path}.code`);
      for (const [k, c] of ((resource.category as unknown[] | undefined) ?? []).entries()) concept(c, `${path}.category[${k}]`);
      if (resource.effectiveDateTime !== undefined && !DATE_TIME.test(String(resource.effectiveDateTime))) problem(`${path}.effectiveDateTime`, 'not a dateTime');
      (resource.result as Json[] | undefined)?.forEach((ref, k) => {
        if (byUrl.get(String(ref.reference))?.resourceType !== 'Observation') problem(`${path}.result[${k}]`, 'must reference an Observation in the bundle');
      });
    } else problem(path, `unexpected resource type ${String(resource.resourceType)}`);
  }
  return problems;
}
