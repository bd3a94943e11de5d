import type { PageWriter, TextStyle } from './page-writer';
import { CONTENT_WIDTH, TYPE } from './theme';
import type { DiseaseScore, ReportResult } from './types';

type Model = DiseaseScore['model'];

/** Every model any domain of any result was scored with, once, in first-use order. */
export function modelsUsed(results: readonly ReportResult[]): Model[] {
  const models = new Map<string, Model>();
  for (const result of results) for (const score of result.disease_scores) if (!models.has(score.model.id)) models.set(score.model.id, score.model);
  return [...models.values()];
}

export function citationLine(model: Model): string {
  const doi = model.doi ? ` doi:${model.doi}` : '';
  return `${model.name} (${model.id}, version ${model.version}). ${model.citation}${doi}`;
}

const METHOD_NOTES = [
  'Peers are people of the same sex and age in the US National Health and Nutrition Examination Survey (NHANES 2017–2020, survey-weighted, ' +
    'interpolated between 5-year bands); risk ratios and percentiles compare you with the median peer.',
  'Missing inputs are carried forward from an earlier event (up to 365 days) or derived from other values; an input that is still missing is set to the value of same-sex peers of the same age, ' +
    'so it moves no result away from peers and gets no attribution; each domain page says what measuring it could change.',
  'Health score: 50 · (1 − z / (1 + |z|)), z = the distance of the modelled risk from the median peer’s on the model’s own scale, in half the peers’ interquartile range: 50 is the median peer, 75 and 25 the peers’ quartiles.',
  'Biomarker ranges: the lab reference range as a US national laboratory prints it; an optimal range only where a published guideline gives one; ' +
    'the population mean of same-sex, same-age-band NHANES participants.',
];

function paragraphs(results: readonly ReportResult[], scoringVersion: string): { text: string; style: TextStyle }[] {
  return [
    ...modelsUsed(results).map((model) => ({ text: citationLine(model), style: { size: TYPE.small + 0.5 } })),
    ...METHOD_NOTES.map((text) => ({ text, style: { size: TYPE.small } })),
    { text: `Scoring version ${scoringVersion}. Rendered by Hale.`, style: { size: TYPE.small } },
  ];
}

/** Height the methods section needs, so a page-limited report can keep room for it. */
export function methodsHeight(w: PageWriter, results: readonly ReportResult[], scoringVersion: string): number {
  const body = paragraphs(results, scoringVersion).reduce(
    (sum, p) => sum + w.wrap(p.text, CONTENT_WIDTH, p.style).length * w.lineHeight(p.style.size) + 2,
    0,
  );
  return body + TYPE.heading * 2.3 + 4;
}

export function drawMethods(w: PageWriter, results: readonly ReportResult[], scoringVersion: string): void {
  w.heading('Methods and sources');
  for (const p of paragraphs(results, scoringVersion)) {
    w.paragraph(p.text, p.style);
    w.gap(2);
  }
}
