import { writeFileSync } from 'node:fs';
import { generateLabcorpReport, generateQuestReport } from '../test/fixtures/labs/generator';
import { CLEAN_SCAN, scanned } from '../test/fixtures/labs/scanned';

/**
 * `npx tsx scripts/sample-lab-report.ts [quest|labcorp] [out.pdf] [--scanned]` writes a mock-patient
 * lab report (the same generator the tests use) so a newcomer can try the extraction endpoints without
 * a real, PHI-bearing document. The mock patient is always the same, so the README's upload can send
 * the date of birth the report prints (verification.dobMatches: true) and then another (false).
 * `--scanned` writes it as a clean 200-dpi scan instead (an image-only PDF, test/fixtures/labs/scanned.ts;
 * needs poppler-utils' `pdftoppm`), which Hale reads by OCR.
 */
export const SAMPLE_PATIENT = { name: 'SAMPLE, PATRICIA', sex: 'F', dateOfBirth: '1980-01-31' } as const;

export async function sampleLabReport(vendor: 'quest' | 'labcorp', { scan = false } = {}): Promise<Uint8Array> {
  const options = { seed: 7, patient: SAMPLE_PATIENT };
  const report = vendor === 'labcorp' ? await generateLabcorpReport(options) : await generateQuestReport(options);
  return scan ? scanned(report.pdf, CLEAN_SCAN) : report.pdf;
}

async function main(): Promise<void> {
  const [vendorArgument, outArgument] = process.argv.slice(2).filter((a) => a !== '--scanned');
  const vendor = vendorArgument === 'labcorp' ? 'labcorp' : 'quest';
  const scan = process.argv.includes('--scanned');
  const out = outArgument ?? `sample-${vendor}-${scan ? 'scan' : 'report'}.pdf`;
  const pdf = await sampleLabReport(vendor, { scan });
  writeFileSync(out, pdf);
  const { name, dateOfBirth } = SAMPLE_PATIENT;
  process.stdout.write(`wrote ${out} (${pdf.length} bytes${scan ? ', image only' : ''}): mock patient ${name}, female, born ${dateOfBirth}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
