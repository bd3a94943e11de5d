import { conceptId } from '../concept-id';
import { isValidLoincCode } from '../loinc';
import type { ReferenceDataEntry } from '../schemas';
import { ucum } from './ucum';

/** OMOP CDM vocabulary table: vocabulary_concept_id of each vocabulary Hale uses. */
export const VOCABULARY_CONCEPT_IDS = { LOINC: 44819102, SNOMED: 44819097 } as const;

/** OMOP's open-ended validity date for a current concept. */
const OPEN_END = '2099-12-31 23:59:59';

export interface LoincRow {
  loinc_code: string;
  long_common_name: string;
  example_ucum_unit: string;
}

export interface CuratedConcepts {
  snomed: { concept_code: string; concept_name: string; concept_class_id: string; domain_id: string }[];
  loinc_non_lab: { concept_code: string; concept_class_id: string; domain_id: string }[];
}

export interface Release {
  release: string;
  /** `YYYY-MM-DD HH:MM:SS.ffffff` UTC. */
  released_dtutc: string;
}

type ConceptContent = Omit<ReferenceDataEntry, 'start_dtutc' | 'end_dtutc' | 'created_dtutc' | 'updated_dtutc'>;

function loincConcept(row: LoincRow, classes: Map<string, { concept_class_id: string; domain_id: string }>): ConceptContent {
  if (!isValidLoincCode(row.loinc_code)) throw new Error(`LOINC ${row.loinc_code} fails its check digit`);
  const unit = row.example_ucum_unit.trim();
  if (unit !== '' && ucum.validateUnitString(unit).status !== 'valid') throw new Error(`LOINC ${row.loinc_code}: "${unit}" is not UCUM`);
  const cls = classes.get(row.loinc_code) ?? { concept_class_id: 'Lab Test', domain_id: 'Measurement' };
  return {
    concept_id: conceptId('LOINC', row.loinc_code),
    concept_name: row.long_common_name,
    concept_code: row.loinc_code,
    pref_ucum_unit: unit === '' ? null : unit,
    lookup_type_concept_id: null,
    vocabulary_id: 'LOINC',
    vocabulary_concept_id: VOCABULARY_CONCEPT_IDS.LOINC,
    concept_class_id: cls.concept_class_id,
    domain_id: cls.domain_id,
    standard_concept: 'S',
  };
}

function sameContent(a: ConceptContent, b: ReferenceDataEntry): boolean {
  return (Object.keys(a) as (keyof ConceptContent)[]).every((k) => a[k] === b[k]);
}

/**
 * Every concept Hale knows: the common-labs LOINC table, the non-lab LOINC scoring inputs, and the
 * curated SNOMED codes. Timestamps carry over from `previous` (the last release's output) so a concept
 * keeps its created/start time forever; changed content gets `updated_dtutc`, a concept that is no
 * longer in the inputs stays listed with `end_dtutc` set (OMOP's way of retiring a concept).
 */
export function buildConcepts(
  labs: readonly LoincRow[],
  scoringInputs: readonly LoincRow[],
  curated: CuratedConcepts,
  release: Release,
  previous: readonly ReferenceDataEntry[],
): ReferenceDataEntry[] {
  const classes = new Map(curated.loinc_non_lab.map((c) => [c.concept_code, c]));
  const contents: ConceptContent[] = [
    ...labs.map((r) => loincConcept(r, classes)),
    ...scoringInputs.map((r) => loincConcept(r, classes)),
    ...curated.snomed.map((s) => ({
      concept_id: conceptId('SNOMED', s.concept_code),
      concept_name: s.concept_name,
      concept_code: s.concept_code,
      pref_ucum_unit: null,
      lookup_type_concept_id: null,
      vocabulary_id: 'SNOMED' as const,
      vocabulary_concept_id: VOCABULARY_CONCEPT_IDS.SNOMED,
      concept_class_id: s.concept_class_id,
      domain_id: s.domain_id,
      standard_concept: 'S' as const,
    })),
  ];
  const byId = new Map<number, ConceptContent>();
  for (const c of contents) {
    const clash = byId.get(c.concept_id);
    if (clash && clash.concept_code !== c.concept_code) throw new Error(`concept id collision: ${clash.concept_code} and ${c.concept_code}`);
    if (clash) throw new Error(`${c.vocabulary_id} ${c.concept_code} is listed twice`);
    byId.set(c.concept_id, c);
  }
  const prior = new Map(previous.map((p) => [p.concept_id, p]));
  const released = release.released_dtutc;
  const releasedSeconds = released.slice(0, 19);
  const out: ReferenceDataEntry[] = [];
  for (const content of byId.values()) {
    const before = prior.get(content.concept_id);
    if (!before) {
      out.push({ ...content, start_dtutc: releasedSeconds, end_dtutc: OPEN_END, created_dtutc: released, updated_dtutc: null });
      continue;
    }
    const changed = !sameContent(content, before) || before.end_dtutc !== OPEN_END;
    out.push({
      ...content,
      start_dtutc: before.start_dtutc,
      end_dtutc: OPEN_END,
      created_dtutc: before.created_dtutc,
      updated_dtutc: changed ? released : before.updated_dtutc,
    });
  }
  for (const before of previous) {
    if (byId.has(before.concept_id)) continue;
    const stillOpen = before.end_dtutc === OPEN_END;
    out.push(stillOpen ? { ...before, end_dtutc: releasedSeconds, updated_dtutc: released } : before);
  }
  return out.sort((a, b) => a.vocabulary_id.localeCompare(b.vocabulary_id) || a.concept_code.localeCompare(b.concept_code, 'en', { numeric: true }));
}
