import { BulkCreateResponseSchema, BulkResultLineSchema, BulkStatusSchema } from '../../functions/bulk/schemas';
import type { StatusResponse } from '../../functions/lab/api-schemas';
import { classifyDocument } from '../../functions/lab/classify-document';
import { extractLabResults } from '../../functions/lab/parsers';
import { readPdfText } from '../../functions/lab/pdf-text';
import type { ExtractionResults, LabPanel } from '../../functions/lab/results-schema';
import { ReferenceDataResponseSchema } from '../../functions/reference/schemas';
import { formatScore } from '../../functions/report/layout/format';
import type { ReportJobResponse } from '../../functions/report/schemas';
import { scoreTimeseries } from '../../functions/scoring/engine';
import { TimeseriesRequestSchema, type TimeseriesResponse } from '../../functions/scoring/schemas';
import { generateQuestReport } from '../fixtures/labs/generator';
import { normalise, parsePdf } from '../unit/report/pdf-text';
import { timeseriesRequest } from '../unit/scoring/fixtures';
import { executionEnd } from './helpers/aws';
import { startTestRuntime, type TestRuntime } from './helpers/runtime';
import { base64 } from './lab/lab-test-kit';
import { fullReportBody, timeseriesBody } from './report/report-flow';
import { Receiver } from './report/receiver';

/**
 * The Lambda code as the stack deploys it: the local runtime in bundles mode runs every route and
 * worker from its esbuild bundle (infra/bundling.ts, the options CDK uses), each in execution
 * environments of its own that can reach only the AWS SDK beside the bundle, as on Lambda. One route
 * and the workers behind it in each area, end to end over HTTP, so a bundling mistake (a module left
 * out, an ESM/CommonJS mix-up, a file not shipped beside the bundle) fails here rather than after a
 * deploy. The bundles are built on first use and cached between runs (local/lambda-bundles.ts).
 */

// Building a bundle the first time costs CPU on a shared machine; no assertion is about time.
jest.setTimeout(300_000);

let hale: TestRuntime;
let receiver: Receiver;

beforeAll(async () => {
  [hale, receiver] = await Promise.all([startTestRuntime({ handlers: 'bundles' }), Receiver.start()]);
});

afterAll(async () => {
  await receiver?.close();
  await hale?.stop();
});

/**
 * POSTs (and the direct S3 requests) go out on a connection of their own: after a pause (the test's own
 * CPU work, a pipeline running) a kept-alive connection may be closing just as the next request uses
 * it, and only the helper's GETs are sent again then.
 */
const OWN_CONNECTION = { headers: { connection: 'close' } };

/**
 * How a job's execution ended, once it exists (a bulk job's starts when its file arrives): SUCCEEDED
 * with no failed state means no function of the pipeline failed, not even a step that was retried.
 */
async function executionOf(machine: string, jobId: string): Promise<{ status: string; failedStates: string[] }> {
  for (let waited = 0; ; waited += 250) {
    try {
      return await executionEnd(hale, machine, jobId);
    } catch (error) {
      if ((error as Error).name !== 'ExecutionDoesNotExist' || waited > 120_000) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('scoring', () => {
  it('POST /health-score/timeseries answers 200 with what the scoring engine computes', async () => {
    const body = timeseriesBody([0, 1, 2]);
    const response = await hale.post('/health-score/timeseries', body, OWN_CONNECTION);
    expect(response.status).toBe(200);
    const results = response.json<TimeseriesResponse>();
    expect(results.scoring_results).toHaveLength(3);
    expect(results).toEqual(scoreTimeseries(TimeseriesRequestSchema.parse(body)));
  });
});

describe('reference data', () => {
  it('GET /reference-data/ serves the concepts', async () => {
    const response = await hale.get('/reference-data/');
    expect(response.status).toBe(200);
    const concepts = ReferenceDataResponseSchema.parse(response.json());
    expect(concepts.length).toBeGreaterThanOrEqual(187 + 9 + 5);
  });
});

describe('reports', () => {
  it('POST /health-score/report runs the report machine (score, render with the shipped fonts, deliver) to a delivered PDF', async () => {
    const response = await hale.post('/health-score/report', fullReportBody({ callback_url: receiver.url('/report') }), OWN_CONNECTION);
    expect(response.status).toBe(202);
    const job = response.json<ReportJobResponse>();
    expect(await executionOf('report-generation', job.job_id)).toEqual({ status: 'SUCCEEDED', failedStates: [] });
    const status = await hale.get(`/health-score/report/status/${job.job_id}`);
    expect(status.status).toBe(200);
    expect(status.json()).toMatchObject({ job_id: job.job_id, status: 'completed', error_type: null });

    const puts = receiver.of('PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]!.headers['content-type']).toBe('application/pdf');
    const pdf = await parsePdf(new Uint8Array(puts[0]!.body));
    const expected = scoreTimeseries(TimeseriesRequestSchema.parse(timeseriesBody([0, 1, 2])));
    for (const score of expected.scoring_results.flatMap((result) => result.disease_scores)) {
      expect(pdf.text).toContain(normalise(formatScore(score.health_score)));
    }
    expect(receiver.of('POST').map((callback) => JSON.parse(callback.body.toString('utf8')) as { status: string })).toEqual([
      expect.objectContaining({ job_id: job.job_id, status: 'success' }),
    ]);
  });
});

describe('lab extraction', () => {
  it('POST /extraction/lab/upload of a Quest report runs the pipeline (pdf.js, PHI, parsers, UCUM, LOINC) to completed', async () => {
    const report = await generateQuestReport({ seed: 101 });
    const upload = await hale.post('/extraction/lab/upload', { pdfFile: base64(report.pdf), dateOfBirth: report.truth.patient.dateOfBirth }, OWN_CONNECTION);
    expect(upload.status).toBe(202);
    const { jobId } = upload.json<{ jobId: string }>();
    expect(await executionOf('lab-extraction', jobId)).toEqual({ status: 'SUCCEEDED', failedStates: [] });
    const status = await hale.get(`/extraction/lab/status/${jobId}`);
    expect(status.status).toBe(200);
    expect(status.json<StatusResponse>()).toMatchObject({ status: 'completed', verification: { dobFound: true, dobMatches: true } });

    // The bundled pipeline reads exactly what the parsers read from the same document here.
    const pages = await readPdfText(report.pdf);
    const classification = classifyDocument(pages);
    if (classification.kind !== 'lab_report') throw new Error('fixture not classified as a lab report');
    const essentials = (panels: LabPanel[]) =>
      panels.flatMap((p) => p.panelResults.map((r) => [p.panelName, r.biomarker, r.resultValue, r.resultUnit, r.loincCode, r.ucumCode]));
    const results = await hale.get(`/extraction/lab/results/${jobId}`);
    expect(results.status).toBe(200);
    const served = results.json<ExtractionResults>();
    expect(served).toMatchObject({ jobId, status: 'completed', labName: 'Quest Diagnostics' });
    expect(essentials(served.panels)).toEqual(essentials(extractLabResults(pages, classification).panels));
    expect(served.panels.flatMap((p) => p.panelResults).some((r) => r.loincCode !== null && r.ucumCode !== null)).toBe(true);
  });
});

describe('bulk scoring', () => {
  it('POST /health-score/bulk, the upload trigger and the bulk machine (prepare, score batches, assemble) complete a job with the engine’s results', async () => {
    const requests = Array.from({ length: 5 }, (_, i) => timeseriesRequest({ uid_ext: `person-${i}`, date_of_birth: `196${i}-03-01`, dates_to_score: ['2025-03-01'] }));
    const lines = `${requests.map((request) => JSON.stringify(request)).join('\n')}\n`;
    const created = await hale.post('/health-score/bulk', { format: 'jsonl', size_bytes: Buffer.byteLength(lines) }, OWN_CONNECTION);
    expect(created.status).toBe(202);
    const job = BulkCreateResponseSchema.parse(created.json());
    const put = await fetch(job.upload_url, { method: 'PUT', headers: { 'content-type': job.upload_content_type, ...OWN_CONNECTION.headers }, body: new Uint8Array(Buffer.from(lines)) });
    expect(put.status).toBe(200);

    expect(await executionOf('bulk-scoring', job.job_id)).toEqual({ status: 'SUCCEEDED', failedStates: [] });
    const response = await hale.get(`/health-score/bulk/${job.job_id}`);
    expect(response.status).toBe(200);
    const status = BulkStatusSchema.parse(response.json());
    expect(status).toMatchObject({ status: 'completed', progress: expect.objectContaining({ items_total: 5, items_done: 5, items_failed: 0 }) });

    const download = await fetch(status.results_url!, OWN_CONNECTION);
    expect(download.status).toBe(200);
    const results = (await download.text())
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => BulkResultLineSchema.parse(JSON.parse(line)));
    expect(results.map((result) => result.line)).toEqual([1, 2, 3, 4, 5]);
    for (const { line, ...response } of results) {
      expect(response).toEqual(scoreTimeseries(TimeseriesRequestSchema.parse(requests[line - 1])));
    }
  });
});
