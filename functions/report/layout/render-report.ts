import { PDFDocument } from 'pdf-lib';
import { drawBiomarkerTable } from './biomarker-table';
import { drawCover, reportTitle, WELLNESS_NOTICE } from './cover';
import { drawDomainBrief, drawDomainDetail } from './domain-details';
import { domainTracks, latest } from './domains';
import { formatYears } from './format';
import { drawMethods, methodsHeight } from './methods';
import { PageWriter } from './page-writer';
import { unshapedFontkit } from './unshaped-fontkit';
import { drawDomainSummary, drawScoreBars } from './summary';
import type { ReportDocumentInput } from './types';

export interface FontFiles {
  regular: Uint8Array;
  bold: Uint8Array;
}

/** The condensed report fits on two pages whatever the input; sections say what they left out. */
export const CONDENSED_MAX_PAGES = 2;

/**
 * Renders the report PDF. Pure: no I/O, fonts are passed in. The fonts are embedded as subsets so
 * every character (≥, ≤, µ, en dashes, names in any script the font covers) prints, not only WinAnsi.
 */
export async function renderReport(input: ReportDocumentInput, fonts: FontFiles, renderedAt: Date): Promise<Uint8Array> {
  if (input.results.length === 0) throw new Error('A report needs at least one scored event');
  const doc = await PDFDocument.create();
  doc.registerFontkit(unshapedFontkit);
  const [regular, bold] = await Promise.all([doc.embedFont(fonts.regular, { subset: true }), doc.embedFont(fonts.bold, { subset: true })]);
  const title = `Hale ${reportTitle(input.variant)}`;
  doc.setTitle(title, { showInWindowTitleBar: true });
  doc.setLanguage('en-US');
  doc.setAuthor('Hale');
  doc.setSubject('General-wellness health report: health scores, biological ages and risk ratios by health domain');
  doc.setKeywords(['health report', 'general wellness', input.variant]);
  doc.setCreator('Hale report renderer');
  doc.setProducer('Hale (pdf-lib)');
  doc.setCreationDate(renderedAt);
  doc.setModificationDate(renderedAt);

  const w = new PageWriter(doc, { regular, bold }, input.variant === 'condensed' ? CONDENSED_MAX_PAGES : undefined);
  const current = latest(input.results);
  drawCover(w, input);
  w.heading(`Summary at age ${formatYears(current.scoring_event_age)}`);
  drawDomainSummary(w, current);

  if (input.variant === 'full') {
    w.heading('Health scores at a glance');
    drawScoreBars(w, current);
    for (const track of domainTracks(input.results)) {
      w.newPage();
      drawDomainDetail(w, track, input.results);
    }
    w.newPage();
    w.heading(`Biomarkers at age ${formatYears(current.scoring_event_age)}`);
    drawBiomarkerTable(w, current, input.ranges);
    w.newPage();
    drawMethods(w, input.results, input.scoringVersion);
  } else {
    w.reserveAtEnd(methodsHeight(w, input.results, input.scoringVersion));
    w.heading('What drives each domain');
    for (const score of current.disease_scores) if (!drawDomainBrief(w, score)) break;
    if (w.heading('Biomarkers')) drawBiomarkerTable(w, current, input.ranges);
    w.releaseReserve();
    drawMethods(w, input.results, input.scoringVersion);
  }
  w.footers(WELLNESS_NOTICE.split('. ')[0]!);
  return doc.save({ useObjectStreams: true });
}
