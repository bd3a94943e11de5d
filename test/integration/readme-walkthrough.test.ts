import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StatusResponse } from '../../functions/lab/api-schemas';
import { type ReportReceiver, startReportReceiver } from '../../scripts/report-receiver';
import { SAMPLE_PATIENT, sampleLabReport } from '../../scripts/sample-lab-report';
import { eventually } from './helpers/aws';
import { startTestRuntime, type TestRuntime } from './helpers/runtime';
import { finished, uploadBase64 } from './lab/lab-test-kit';

/**
 * The README walk-through's report and lab steps with the README's own request bodies: the report
 * receiver script saves the PDF Hale delivers, and the sample lab report's date of birth is the one
 * the README uploads (then a different one, which does not match).
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

  it('uploads the sample report with the date of birth it prints, then with another one', async () => {
    const dates = [...readme.matchAll(/\\"dateOfBirth\\": \\"(\d{4}-\d{2}-\d{2})\\"/g)].map((m) => m[1]);
    expect(dates).toEqual([SAMPLE_PATIENT.dateOfBirth, expect.any(String)]);
    expect(dates[1]).not.toBe(SAMPLE_PATIENT.dateOfBirth);

    const pdf = await sampleLabReport('quest');
    const [matching, other] = await Promise.all(dates.map(async (dateOfBirth) => finished(hale, await uploadBase64(hale, pdf, { dateOfBirth }))));
    expect(matching).toMatchObject<Partial<StatusResponse>>({ status: 'completed', detected_lab: 'Quest Diagnostics', verification: { dobFound: true, dobMatches: true } });
    expect(other).toMatchObject<Partial<StatusResponse>>({ status: 'completed', verification: { dobFound: true, dobMatches: false } });
  });
});
