import { writeFileSync } from 'node:fs';
import { generateLabcorpReport, generateQuestReport } from '../test/fixtures/labs/generator';

/**
 * `npx tsx scripts/sample-lab-report.ts [quest|labcorp] [out.pdf]` writes a mock-patient lab report
 * (the same generator the tests use) so a newcomer can try the extraction endpoints without a real,
 * PHI-bearing document. The mock patient is always the same, so the README's upload can send the
 * date of birth the report prints (verification.dobMatches: true) and then another (false).
 */
export const SAMPLE_PATIENT = { name: 'SAMPLE, PATRICIA', sex: 'F', dateOfBirth: '1980-01-31' } as const;

export async function sampleLabReport(vendor: 'quest' | 'labcorp'): Promise<Uint8Array> {
  const options = { seed: 7, patient: SAMPLE_PATIENT };
  const report = vendor === 'labcorp' ? await generateLabcorpReport(options) : await generateQuestReport(options);
  return report.pdf;
}

async function main(): Promise<void> {
  const vendor = process.argv[2] === 'labcorp' ? 'labcorp' : 'quest';
  const out = process.argv[3] ?? `sample-${vendor}-report.pdf`;
  const pdf = await sampleLabReport(vendor);
  writeFileSync(out, pdf);
  const { name, dateOfBirth } = SAMPLE_PATIENT;
  process.stdout.write(`wrote ${out} (${pdf.length} bytes): mock patient ${name}, female, born ${dateOfBirth}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
