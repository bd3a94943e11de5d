import { formatAgeRange, formatYears } from './format';
import type { PageWriter } from './page-writer';
import { COLOR, CONTENT_WIDTH, TYPE } from './theme';
import type { ReportDocumentInput } from './types';

export const WELLNESS_NOTICE =
  'For general wellness only. This report is not medical advice, a diagnosis or a treatment plan. ' +
  'It estimates risks from published population models and cannot account for your full medical history. ' +
  'Discuss any result or change with a qualified healthcare professional.';

const NOTICE_TITLE = 'General wellness information — not medical advice';

export function reportTitle(variant: ReportDocumentInput['variant']): string {
  return variant === 'full' ? 'Health Report' : 'Health Report — Snapshot';
}

/** Title block, whose report it is and when, and the wellness notice in a panel (first page). */
export function drawCover(w: PageWriter, input: ReportDocumentInput): void {
  const ages = input.results.map((r) => r.scoring_event_age);
  w.y -= TYPE.title;
  w.text(reportTitle(input.variant), w.left, w.y, { size: TYPE.title, bold: true, color: COLOR.accent });
  w.y -= 8;
  const facts = [
    `Prepared for: ${input.uidExt}`,
    `Report date: ${input.asOf.slice(0, 10)}`,
    input.variant === 'full'
      ? `Events: ${input.results.length}, at ages ${formatAgeRange(ages)}`
      : `Event at age ${formatYears(ages[0] ?? null)} years`,
  ];
  for (const fact of facts) w.paragraph(fact, { size: TYPE.subheading, color: COLOR.muted });
  w.gap(8);

  const lines = w.wrap(WELLNESS_NOTICE, CONTENT_WIDTH - 20, { size: TYPE.body });
  const height = (lines.length + 1) * w.lineHeight() + 16;
  w.page.drawRectangle({ x: w.left, y: w.y - height, width: CONTENT_WIDTH, height, color: COLOR.warningPanel, borderColor: COLOR.secondary, borderWidth: 0.8 });
  w.y -= 8;
  for (const [index, line] of [NOTICE_TITLE, ...lines].entries()) {
    w.y -= TYPE.body;
    w.text(line, w.left + 10, w.y, { size: TYPE.body, bold: index === 0 });
    w.y -= w.lineHeight() - TYPE.body;
  }
  w.y -= 8;
  w.gap(6);
}
