import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readPdfText } from '../../functions/lab/pdf-text';
import { printedDatesOfBirth } from '../../functions/lab/phi/builtin-detector';
import { dateOfBirthDigest, verifyDateOfBirth } from '../../functions/lab/phi/date-of-birth';
import { documentText } from '../../functions/lab/phi/document-text';
import { type ReportReceiver, startReportReceiver } from '../../scripts/report-receiver';
import { SAMPLE_PATIENT, sampleLabReport } from '../../scripts/sample-lab-report';
import { eventually } from './helpers/aws';
import { startTestRuntime, type TestRuntime } from './helpers/runtime';

/**
 * The README walk-through's report and lab steps with the README's own requests: the report receiver
 * script saves the PDF Hale delivers for report.json, and the sample lab report prints the date of
 * birth the README uploads (then a different one, which does not match). The lab pipeline itself is
 * tested end to end in lab/lab-pipeline.test.ts.
 */

const README = path.join(__dirname, '..', '..', 'README.md');
const RECEIVER_URL = 'http://127.0.0.1:4000/hale-report';

let hale: TestRuntime;
let receiver: ReportReceiver;
let folder: string;
let readme: string;
const printed: string[] = [];

beforeAll(async () => {
  readme = await readFile(README, 'utf8');
  folder = await mkdtemp(path.join(os.tmpdir(), 'hale-receiver-'));
  receiver = await startReportReceiver(0, folder, (line) => printed.push(line));
  hale = await startTestRuntime();
});

afterAll(async () => {
  await hale.stop();
  await receiver.close();
  await rm(folder, { recursive: true, force: true });
});

describe('README walk-through', () => {
  it('delivers the report of report.json to the receiver, which saves the PDF', async () => {
    const heredoc = /cat > report\.json <<'JSON'\n([\s\S]*?)\nJSON\n/.exec(readme)?.[1];
    expect(heredoc).toBeDefined();
    expect(heredoc).toContain(RECEIVER_URL);
    const body = JSON.parse(heredoc!.replace(RECEIVER_URL, receiver.url)) as unknown;

    const accepted = await hale.post('/health-score/report', body);
    expect(accepted.status).toBe(202);
    const { job_id: jobId } = accepted.json<{ job_id: string }>();
    const saved = path.join(folder, `report-${jobId}.pdf`);
    await eventually(async () => ((await readdir(folder)).includes(path.basename(saved)) ? true : undefined));
    expect((await readFile(saved)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const callback = await eventually(async () => printed.find((line) => line.startsWith('POST /hale-report')));
    expect(callback).toContain('Authorization: Bearer receiver-secret');
    expect(JSON.parse(callback.split('\n')[1]!)).toMatchObject({ job_id: jobId, status: 'success' });
    expect(printed.find((line) => line.startsWith('PUT '))).toContain(`saved ${saved}`);
  });

  it('sends the date of birth the sample report prints, and in the second command another one', async () => {
    const dates = [...readme.matchAll(/\\"dateOfBirth\\": \\"(\d{4}-\d{2}-\d{2})\\"/g)].map((m) => m[1]!);
    expect(dates).toEqual([SAMPLE_PATIENT.dateOfBirth, expect.any(String)]);
    // What the DetectPhi step does with the upload's date of birth, on the sample's own text.
    const printedDates = printedDatesOfBirth(documentText(await readPdfText(await sampleLabReport('quest'))).text);
    const verify = (dateOfBirth: string) => verifyDateOfBirth(printedDates, dateOfBirthDigest(dateOfBirth, 'job', 'secret'), 'job', 'secret');
    expect(verify(dates[0]!)).toEqual({ dobFound: true, dobMatches: true });
    expect(verify(dates[1]!)).toEqual({ dobFound: true, dobMatches: false });
  });

  it('makes with --scanned a scan of the same report: pages with no text layer, left to OCR', async () => {
    expect(readme).toContain('npx tsx scripts/sample-lab-report.ts quest sample-scan.pdf --scanned');
    const pages = await readPdfText(await sampleLabReport('quest', { scan: true }));
    expect(pages.length).toBeGreaterThan(0);
    // No `source`: no usable text layer, so ValidatePdf lists the page for the Recognize stage.
    for (const page of pages) expect(page).toMatchObject({ items: [] });
    expect(pages.every((page) => page.source === undefined)).toBe(true);
  });
});
