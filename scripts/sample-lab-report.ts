import { writeFileSync } from 'node:fs';
import { generateLabcorpReport, generateQuestReport } from '../test/fixtures/labs/generator';

/**
 * `npx tsx scripts/sample-lab-report.ts [quest|labcorp] [out.pdf]` writes a mock-patient lab report
 * (the same generator the tests use) so a newcomer can try the extraction endpoints without a real,
 * PHI-bearing document.
 */
async function main(): Promise<void> {
  const vendor = process.argv[2] === 'labcorp' ? 'labcorp' : 'quest';
  const out = process.argv[3] ?? `sample-${vendor}-report.pdf`;
  const report = vendor === 'labcorp' ? await generateLabcorpReport({ seed: 7 }) : await generateQuestReport({ seed: 7 });
  writeFileSync(out, report.pdf);
  process.stdout.write(`wrote ${out} (${report.pdf.length} bytes, mock patient)\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
