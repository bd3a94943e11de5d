import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { BULK_LIMITS } from '../../../functions/bulk/limits';
import { BulkCreateResponseSchema, BulkErrorLineSchema, BulkResultLineSchema, type BulkStatus, BulkStatusSchema } from '../../../functions/bulk/schemas';
import { scoreTimeseries } from '../../../functions/scoring/engine';
import { TimeseriesRequestSchema } from '../../../functions/scoring/schemas';
import { fullPanel, predictor, timeseriesRequest } from '../../unit/scoring/fixtures';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime';
import { Receiver } from '../report/receiver';

/**
 * Bulk jobs end to end through the local runtime: POST /health-score/bulk, the PUT to the pre-signed
 * URL, the upload trigger, the bulk state machine with its Distributed Map run locally, the status
 * with progress, the result files through their download URLs, and the signed webhook.
 */

const EXAMPLES = path.resolve(__dirname, '../../../docs/examples');
let hale: TestRuntime;
let receiver: Receiver;
let signingSecret: string;
beforeAll(async () => {
  [hale, receiver] = await Promise.all([startTestRuntime({ mapConcurrency: 2 }), Receiver.start()]);
  signingSecret = JSON.parse(readFileSync(path.join(hale.dataDir, 'local-secrets.json'), 'utf8')).webhookSigningSecret;
});
afterAll(async () => {
  await receiver?.close();
  await hale?.stop();
});

async function submit(format: 'jsonl' | 'csv', body: string | Buffer, options: { webhook?: boolean; webhookPath?: string; apiKey?: string; unsized?: boolean } = {}) {
  const webhookUrl = receiver.url(options.webhookPath ?? `/bulk-${format}`);
  const bytes = Buffer.from(body);
  const size = options.unsized ? {} : { size_bytes: bytes.length };
  const created = await hale.post('/health-score/bulk', { format, ...size, ...(options.webhook ? { webhookUrl } : {}) }, { apiKey: options.apiKey });
  expect(created.status).toBe(202);
  const job = BulkCreateResponseSchema.parse(created.json());
  const put = await fetch(job.upload_url, { method: 'PUT', headers: { 'content-type': job.upload_content_type }, body: new Uint8Array(bytes) });
  expect(put.status).toBe(200);
  return job;
}

async function finished(jobId: string, apiKey?: string): Promise<BulkStatus> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await hale.get(`/health-score/bulk/${jobId}`, { apiKey });
    expect(response.status).toBe(200);
    const status = BulkStatusSchema.parse(response.json());
    if (status.status === 'completed' || status.status === 'failed') return status;
    if (Date.now() > deadline) throw new Error(`bulk job ${jobId} still ${status.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function download(url: string | null): Promise<string> {
  expect(url).toEqual(expect.any(String));
  const response = await fetch(url!);
  expect(response.status).toBe(200);
  return response.text();
}

const jsonLines = (text: string) => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);

describe('bulk scoring jobs', () => {
  it('scores a JSONL file: each result line is that line’s timeseries response with its line number; bad lines are errors beside them', async () => {
    const requests = Array.from({ length: 23 }, (_, i) =>
      timeseriesRequest({ uid_ext: `person-${i}`, date_of_birth: `19${50 + i}-03-0${1 + (i % 9)}`, dates_to_score: ['2025-03-01', '2025-09-01'] }),
    );
    const lines = requests.map((request) => JSON.stringify(request));
    lines.splice(4, 0, '{"uid_ext": "broken", ');
    lines.splice(9, 0, JSON.stringify(timeseriesRequest({ uid_ext: 'bad-value', health_events: [{ health_event_id: 'e', health_event_date: '2025-03-01', predictors: [...fullPanel(), predictor('2160-0', '1,2', 'mg/dL')] }] })));
    lines.splice(12, 0, '');
    const job = await submit('jsonl', `${lines.join('\n')}\n`, { webhook: true });
    const status = await finished(job.job_id);
    expect(status.status).toBe('completed');
    expect(status.progress).toEqual(expect.objectContaining({ items_total: 26, items_done: 26, items_failed: 3 }));

    const results = jsonLines(await download(status.results_url)).map((line) => BulkResultLineSchema.parse(line));
    expect(results.map((r) => r.line)).toEqual(lines.map((_, i) => i + 1).filter((n) => ![5, 10, 13].includes(n)));
    for (const result of results) {
      const { line, ...response } = result;
      expect(response).toEqual(scoreTimeseries(TimeseriesRequestSchema.parse(JSON.parse(lines[line - 1]!))));
    }
    const errors = jsonLines(await download(status.errors_url)).map((line) => BulkErrorLineSchema.parse(line));
    expect(errors.map((e) => [e.line, e.uid_ext])).toEqual([
      [5, null],
      [10, 'bad-value'],
      [13, null],
    ]);
    expect(errors[0]!.errors[0]!.message).toMatch(/not valid JSON/);
    expect(errors[1]!.errors).toEqual([{ field: expect.stringMatching(/^health_events\.0\.predictors\.\d+\.value$/), message: expect.stringMatching(/'1,2' is not a number/) }]);
    expect(errors[2]!.errors[0]!.message).toMatch(/empty/);

    const csv = (await download(status.results_csv_url)).trim().split('\n');
    expect(csv[0]).toMatch(/^line,uid_ext,score_date,age,all_cause_status,all_cause_health_score,/);
    expect(csv).toHaveLength(1 + results.length * 2);
    const firstResult = results[0]!.scoring_results[0]!;
    expect(csv[1]!.split(',').slice(0, 6)).toEqual(['1', 'person-0', '2025-03-01', String(firstResult.scoring_event_age), 'scored', String(firstResult.disease_scores[0]!.health_score)]);

    expect(status.summary!.by_status).toEqual({ scored: 23, invalid: 3 });
    expect(status.summary!.person_dates_scored).toBe(46);
    const scores = results.flatMap((r) => r.scoring_results.map((s) => s.disease_scores.find((d) => d.disease_code === 'all_cause')!.health_score!));
    const allCause = status.summary!.domains.all_cause!.health_score;
    expect(allCause.count).toBe(scores.length);
    expect(allCause.min).toBeCloseTo(Math.min(...scores), 3);
    expect(allCause.max).toBeCloseTo(Math.max(...scores), 3);
    expect(allCause.mean).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 3);

    await receiver.waitFor((requests) => requests.some((r) => r.url === '/bulk-jsonl'));
    const [hook] = receiver.of('POST', '/bulk-jsonl');
    const payload = hook!.body.toString('utf8');
    new Webhook(signingSecret).verify(payload, hook!.headers as Record<string, string>);
    expect(JSON.parse(payload)).toEqual({
      event: 'bulk.completed',
      jobId: job.job_id,
      timestamp: expect.any(String),
      data: { status: 'completed', progress: { items_total: 26, items_done: 26, items_failed: 3 }, error: null, results_ready: true },
    });
  });

  it('scores the documented example CSV: one row per person-date, errors name the column', async () => {
    const job = await submit('csv', readFileSync(path.join(EXAMPLES, 'bulk-input.csv')));
    const status = await finished(job.job_id);
    expect(status.status).toBe('completed');
    const results = jsonLines(await download(status.results_url)).map((line) => BulkResultLineSchema.parse(line));
    expect(results.map((r) => [r.line, r.uid_ext])).toEqual([
      [2, 'member-0001'],
      [3, 'member-0002'],
      [4, 'member-0003'],
    ]);
    expect(results[1]!.scoring_results[0]!.scoring_predictors.find((p) => p.predictor === 'sbp')).toEqual(
      expect.objectContaining({ value: 146, source_date: '2026-02-14', imputation_code: 'carried_forward' }),
    );
    const errors = jsonLines(await download(status.errors_url)).map((line) => BulkErrorLineSchema.parse(line));
    expect(errors).toEqual([{ line: 5, uid_ext: 'member-0004', errors: [expect.objectContaining({ field: 'predictors', message: expect.stringMatching(/sex/) })] }]);
    // A UUID is the same in either case.
    const upper = await hale.get(`/health-score/bulk/${job.job_id.toUpperCase()}`);
    expect([upper.status, (upper.json() as { job_id: string }).job_id]).toEqual([200, job.job_id]);
  });

  it('makes a JSONL line nested thousands deep the error of its line, the job completed', async () => {
    const [first, second] = readFileSync(path.join(EXAMPLES, 'bulk-input.jsonl'), 'utf8').trim().split('\n');
    const deep = `{"uid_ext":"deep","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const status = await finished((await submit('jsonl', `${first}\n${deep}\n${second}\n`)).job_id);
    expect(status.status).toBe('completed');
    expect(jsonLines(await download(status.errors_url)).map((line) => BulkErrorLineSchema.parse(line))).toEqual([
      { line: 2, uid_ext: null, errors: [{ field: '', message: expect.stringMatching(/nests arrays and objects more than 64 deep/) }] },
    ]);
    expect(jsonLines(await download(status.results_url)).map((line) => BulkResultLineSchema.parse(line).line)).toEqual([1, 3]);
  });

  it('fails a file that is not what its format says with invalid_input and the failure webhook, and hides the job from other keys', async () => {
    const job = await submit('csv', readFileSync(path.join(EXAMPLES, 'bulk-input.jsonl')), { webhook: true });
    const status = await finished(job.job_id);
    expect(status.status).toBe('failed');
    expect(status.error).toEqual({ type: 'invalid_input', message: expect.stringMatching(/not a bulk CSV: the header lacks uid_ext, date_of_birth, score_date/) });
    expect(status.results_url).toBeNull();
    await receiver.waitFor((requests) => requests.some((r) => r.url === '/bulk-csv'));
    expect(JSON.parse(receiver.of('POST', '/bulk-csv')[0]!.body.toString('utf8'))).toEqual(
      expect.objectContaining({ event: 'bulk.failed', data: expect.objectContaining({ status: 'failed', error: status.error, results_ready: false }) }),
    );
    expect((await hale.get(`/health-score/bulk/${job.job_id}`, { apiKey: hale.otherApiKey })).status).toBe(404);
  });

  it('fails a file uploaded as JSONL that is not JSON Lines (a CSV, a PDF) with invalid_input and the failure webhook', async () => {
    const csvAsJsonl = await submit('jsonl', readFileSync(path.join(EXAMPLES, 'bulk-input.csv')), { webhook: true, webhookPath: '/bulk-not-jsonl' });
    const pdfAsJsonl = await submit('jsonl', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0, 1, 2, 255, 10, 37, 37, 69, 79, 70])]));
    for (const job of [csvAsJsonl, pdfAsJsonl]) {
      const status = await finished(job.job_id);
      expect(status.status).toBe('failed');
      expect(status.error).toEqual({ type: 'invalid_input', message: expect.stringMatching(/not JSON Lines: none of its lines is a JSON object/) });
      expect([status.results_url, status.errors_url, status.summary]).toEqual([null, null, null]);
    }
    await receiver.waitFor((requests) => requests.some((r) => r.url === '/bulk-not-jsonl'));
    const [hook] = receiver.of('POST', '/bulk-not-jsonl');
    new Webhook(signingSecret).verify(hook!.body.toString('utf8'), hook!.headers as Record<string, string>);
    expect(JSON.parse(hook!.body.toString('utf8'))).toEqual(
      expect.objectContaining({ event: 'bulk.failed', jobId: csvAsJsonl.job_id, data: expect.objectContaining({ status: 'failed', results_ready: false }) }),
    );
  });

  it('reads rows of the wrong width or empty as errors of their line, and rejects a header it cannot read', async () => {
    const header = 'uid_ext,date_of_birth,score_date,76689-9,2093-3 [mg/dL]';
    const job = await submit('csv', `${header}\r\na,1970-01-01,2025-01-01,male,190\r\nb,1970-01-01,2025-01-01,male\r\n\r\nc,1970-01-01,2025-01-01,female,"201"\r\n`);
    const status = await finished(job.job_id);
    expect(status.status).toBe('completed');
    const errors = jsonLines(await download(status.errors_url)).map((line) => BulkErrorLineSchema.parse(line));
    expect(errors.map((e) => [e.line, e.errors[0]!.message])).toEqual([
      [3, 'the row has 4 fields; the header has 5'],
      [4, 'the row is empty'],
    ]);
    expect(jsonLines(await download(status.results_url)).map((r) => (r as { uid_ext: string }).uid_ext)).toEqual(['a', 'c']);

    const unknown = await finished((await submit('csv', 'uid_ext,date_of_birth,score_date,name\nx,1970-01-01,2025-01-01,Jane\n')).job_id);
    expect(unknown.error).toEqual({ type: 'invalid_input', message: expect.stringMatching(/'name' is neither a person field/) });
  });

  it('reads a header as spreadsheets write it, makes a quote a row leaves open or values measured after its date that row’s error, and numbers rows by their lines', async () => {
    // A blank line before the header, spaces around its names, a trailing comma.
    const header = ' uid_ext , date_of_birth,score_date,event_date, 76689-9 ,2093-3 [mg/dL] ,';
    const rows = [
      'a,1970-01-01,2025-01-01,,male,290,',
      '"b,1970-01-01,2025-01-01,,male,190,',
      'c,1970-01-01,2025-01-01,2025-02-01,male,190,',
      'd,1970-01-01,2025-01-01,,female,201,',
    ];
    const status = await finished((await submit('csv', `\n${header}\n${rows.join('\n')}\n`)).job_id);
    expect(status.status).toBe('completed');
    const errors = jsonLines(await download(status.errors_url)).map((line) => BulkErrorLineSchema.parse(line));
    expect(errors.map((e) => [e.line, e.errors.map((error) => error.field), e.errors[0]!.message])).toEqual([
      [4, [''], 'a field opens a quote that its line does not close (a bulk CSV row is one line)'],
      [5, ['event_date'], expect.stringMatching(/^event_date 2025-02-01 is after score_date 2025-01-01/)],
    ]);
    const results = jsonLines(await download(status.results_url)).map((line) => BulkResultLineSchema.parse(line));
    expect(results.map((r) => [r.line, r.uid_ext])).toEqual([
      [3, 'a'],
      [6, 'd'],
    ]);
    expect(results[0]!.scoring_results[0]!.scoring_predictors.find((p) => p.observation_code === '2093-3')).toEqual(expect.objectContaining({ value: 290, imputation_code: 'measured' }));
    expect(status.progress).toMatchObject({ items_total: 4, items_done: 4, items_failed: 2 });
  });

  it('takes a job created with the format alone (no size_bytes): the URL binds no size and the file is scored', async () => {
    const file = readFileSync(path.join(EXAMPLES, 'bulk-input.jsonl'));
    const status = await finished((await submit('jsonl', file, { unsized: true })).job_id);
    expect(status.status).toBe('completed');
    expect(status.progress.items_total).toBe(file.toString('utf8').split('\n').filter((line) => line.trim() !== '').length);
  });

  it('refuses an input over max_bytes when the job is created (413), and an upload of another size than declared (403), leaving the job waiting', async () => {
    const over = await hale.post('/health-score/bulk', { format: 'jsonl', size_bytes: BULK_LIMITS.maxInputBytes + 1 });
    expect(over.status).toBe(413);
    expect(over.json()).toEqual({ detail: expect.stringContaining(`at most ${BULK_LIMITS.maxInputBytes}`) });
    expect((await hale.post('/health-score/bulk', { format: 'jsonl', size_bytes: BULK_LIMITS.maxInputBytes })).status).toBe(202);

    const file = Buffer.from(readFileSync(path.join(EXAMPLES, 'bulk-input.jsonl')));
    const job = BulkCreateResponseSchema.parse((await hale.post('/health-score/bulk', { format: 'jsonl', size_bytes: file.length - 1 })).json());
    const put = await fetch(job.upload_url, { method: 'PUT', headers: { 'content-type': job.upload_content_type }, body: new Uint8Array(file) });
    expect(put.status).toBe(403);
    expect(await put.text()).toContain('SignatureDoesNotMatch');
    const status = BulkStatusSchema.parse((await hale.get(`/health-score/bulk/${job.job_id}`)).json());
    expect(status.status).toBe('pending_upload');
  });
});
