import { PutObjectCommand } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { PDFDocument } from 'pdf-lib';
import type { StatusResponse } from '../../../functions/lab/api-schemas';
import { classifyDocument } from '../../../functions/lab/classify-document';
import type { FhirBundle } from '../../../functions/lab/fhir/fhir-schemas';
import { stopTesseract } from '../../../functions/lab/ocr/tesseract-recognizer';
import { extractLabResults } from '../../../functions/lab/parsers';
import { readPdfText } from '../../../functions/lab/pdf-text';
import type { ExtractionResults, LabPanel } from '../../../functions/lab/results-schema';
import { jobsRepository } from '../../../functions/platform/dynamodb-jobs-repository';
import { concatenated, SPANISH_REPORT_PHI, scannedDocument, spanishLabReport, unreadableSearchableScan } from '../../fixtures/lab-documents/documents';
import { generateLabcorpReport, generateNonLabDocument, generateOtherLabReport, generateQuestReport } from '../../fixtures/labs/generator';
import { scanned } from '../../fixtures/labs/scanned';
import { r4Problems, usCoreProblems } from '../../unit/lab/extraction/fhir-validation';
import { type AwsClients, awsClientsFor, eventually, executionEnd } from '../helpers/aws';
import { startTestRuntime, type TestResponse, type TestRuntime } from '../helpers/runtime';
import { bucketObjects, captureOutput, finished, uploadBase64 } from './lab-test-kit';

/**
 * The lab pipeline end to end through the local runtime (gateway → handlers → ASL → workers, against
 * dynalite and s3rver): both upload flows, every terminal state reached by a fitting document, and a
 * scan for the fixtures' mock identifiers in every log line, response and object left behind.
 */

let hale: TestRuntime;
let aws: AwsClients;
let output: ReturnType<typeof captureOutput>;
const responses: TestResponse[] = [];
const phi = new Set<string>();
/** Caller data, not PHI from the document: it must reach the FHIR export and never a log line. */
const FHIR_SUBJECT = { identifier: { system: 'urn:oid:2.16.840.1.113883.19.5', value: 'caller-subject-4711' } };

function remember(response: TestResponse): TestResponse {
  responses.push(response);
  return response;
}

beforeAll(async () => {
  output = captureOutput();
  hale = await startTestRuntime();
  aws = awsClientsFor(hale);
  const request = hale.request;
  hale.request = async (...args) => remember(await request(...args));
});

afterAll(async () => {
  output.stop();
  aws.destroy();
  await hale.stop();
  await stopTesseract();
});

async function jobFiles(jobId: string): Promise<string[]> {
  const [uploads, artifacts] = await Promise.all([
    bucketObjects(aws, hale.buckets.uploads, `lab/${jobId}/`),
    bucketObjects(aws, hale.buckets.artifacts, `lab/${jobId}/`),
  ]);
  return [...uploads, ...artifacts].map((o) => o.key);
}

describe('base64 upload of an English Quest report', () => {
  let jobId: string;
  let report: Awaited<ReturnType<typeof generateQuestReport>>;
  let truth: (typeof report)['truth'];

  beforeAll(async () => {
    report = await generateQuestReport({ seed: 101 });
    truth = report.truth;
    // The date of birth is also sent with the upload, in ISO form.
    for (const value of [...truth.phi, truth.patient.dateOfBirth]) phi.add(value);
    jobId = await uploadBase64(hale, report.pdf, { dateOfBirth: truth.patient.dateOfBirth, filename: 'quest-march.pdf', fhirSubject: FHIR_SUBJECT });
  });

  it('completes with the results, the verification flags and counts of what was redacted', async () => {
    const job = await finished(hale, jobId);
    expect(job.status).toBe('completed');
    expect(job.filename).toBe('quest-march.pdf');
    expect(job.verification).toEqual({ dobFound: true, dobMatches: true });
    expect(job.phiRedactions).toMatchObject({ name: expect.any(Number), date_of_birth: 1, identifier: expect.any(Number) });
    expect(Object.keys(job.stages)).toEqual(['validate_pdf', 'detect_language', 'detect_phi', 'classify', 'extract', 'standardise_ucum', 'map_loinc', 'finalise']);
    const results = job.results!;
    expect(results).toMatchObject({ jobId, status: 'completed', labName: 'Quest Diagnostics', dateCollected: truth.collectionDate });
    expect(job.detected_lab).toBe(results.labName);
    const biomarkers = results.panels.flatMap((p) => p.panelResults.map((r) => r.biomarker));
    expect(biomarkers.length).toBeGreaterThan(0);
    expect(results.panels.flatMap((p) => p.panelResults).some((r) => r.loincCode !== null && r.ucumCode !== null)).toBe(true);
    // The write that completed it took it out of the open-jobs index.
    const open = await jobsRepository().listOverdue('lab', new Date(Date.now() + 24 * 3600_000), 1000);
    expect(open.map((j) => j.jobId)).not.toContain(jobId);
  });

  it('extracts exactly what the parsers read from the unredacted document: redaction costs no result', async () => {
    const pages = await readPdfText(report.pdf);
    const classification = classifyDocument(pages);
    if (classification.kind !== 'lab_report') throw new Error('fixture not classified as a lab report');
    const direct = extractLabResults(pages, classification);
    const essentials = (panels: LabPanel[]) =>
      panels.flatMap((p) => p.panelResults.map((r) => [p.panelName, r.biomarker, r.resultValue, r.resultUnit, r.loincCode, r.ucumCode, r.pageNumber]));
    const job = await finished(hale, jobId);
    expect(essentials(job.results!.panels)).toEqual(essentials(direct.panels));
  });

  it('serves the same results from the results route, also as FHIR', async () => {
    const results = await hale.get(`/extraction/lab/results/${jobId}`);
    expect(results.status).toBe(200);
    expect(results.json<ExtractionResults>()).toEqual((await finished(hale, jobId)).results);
    const fhir = await hale.get(`/extraction/lab/results/${jobId}?format=fhir`);
    expect(fhir.status).toBe(200);
    expect(fhir.headers.get('content-type')).toContain('application/fhir+json');
    const bundle = fhir.json<FhirBundle>();
    expect(bundle.resourceType).toBe('Bundle');
    // The caller's fhirSubject is on every resource, and the bundle meets R4 and the US Core checks.
    expect(bundle.entry.every((entry) => entry.resource.subject?.identifier?.value === FHIR_SUBJECT.identifier.value)).toBe(true);
    expect(r4Problems(bundle)).toEqual([]);
    expect(usCoreProblems(bundle)).toEqual([]);
  });

  it('keeps the results and deletes the uploaded PDF and every intermediate', async () => {
    expect(await jobFiles(jobId)).toEqual([`lab/${jobId}/results.json`]);
  });

  it('never moves back: a document arriving for the finished job leaves it completed and is deleted', async () => {
    await aws.s3.send(new PutObjectCommand({ Bucket: hale.buckets.uploads, Key: `lab/${jobId}/document.pdf`, Body: Buffer.from(report.pdf), ContentType: 'application/pdf' }));
    await eventually(async () => ((await jobFiles(jobId)).includes(`lab/${jobId}/document.pdf`) ? undefined : true));
    expect((await finished(hale, jobId)).status).toBe('completed');
  });

  it('never stores the date of birth or its digest on the job', async () => {
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { Item } = await aws.documents.send(new GetCommand({ TableName: hale.jobsTable, Key: { pk: `job#lab#${jobId}`, sk: 'job' } }));
    expect(Item).toBeDefined();
    expect(Item!.dobDigest ?? null).toBeNull();
    expect(JSON.stringify(Item)).not.toContain(truth.patient.dateOfBirth);
  });
});

describe('pre-signed upload of a Labcorp report', () => {
  it('issues a PUT URL, starts when the PDF arrives and completes', async () => {
    const report = await generateLabcorpReport({ seed: 102 });
    for (const value of report.truth.phi) phi.add(value);
    const issued = await hale.post('/extraction/lab/upload', { filename: 'labcorp.pdf' });
    expect(issued.status).toBe(200);
    const body = issued.json<{ jobId: string; status: string; uploadUrl: string; expiresAt: string; maxBytes: number }>();
    expect(body).toMatchObject({ status: 'pending_upload', maxBytes: 50 * 1024 * 1024 });
    expect(Date.parse(body.expiresAt) - Date.now()).toBeGreaterThan(290_000);
    expect((await hale.get(`/extraction/lab/status/${body.jobId}`)).json<StatusResponse>().status).toBe('pending_upload');

    const put = await fetch(body.uploadUrl, { method: 'PUT', body: Buffer.from(report.pdf), headers: { 'content-type': 'application/pdf' } });
    expect(put.status).toBe(200);
    const job = await finished(hale, body.jobId);
    expect(job.status).toBe('completed');
    expect(job.results!.labName).toBe('Labcorp');
    expect(job.detected_lab).toBe('Labcorp');
    expect(job.verification).toEqual({ dobFound: true, dobMatches: null });
  });
});

describe('a scanned Quest report (image-only PDF)', () => {
  it('is recognised by OCR in the Recognize stage and completes with results read from the scan', async () => {
    const report = await generateQuestReport({ seed: 107, panelCount: 2 });
    for (const value of report.truth.phi) phi.add(value);
    const jobId = await uploadBase64(hale, await scanned(report.pdf, { seed: 107 }));
    // OCR takes seconds a page, more on a busy machine.
    const job = await finished(hale, jobId, () => true, 120_000);
    expect(job.status).toBe('completed');
    expect(Object.keys(job.stages).slice(0, 3)).toEqual(['validate_pdf', 'recognize', 'detect_language']);
    expect(job.error_type).toBeNull();
    const printed = new Set(report.truth.panels.flatMap((p) => p.results.map((r) => `${r.biomarker}=${r.resultValue}`)));
    const results = job.results!.panels.flatMap((p) => p.panelResults);
    const read = results.map((r) => `${r.biomarker}=${r.resultValue}`);
    expect(read.filter((r) => printed.has(r)).length).toBeGreaterThanOrEqual(printed.size / 2);
    // Every result says it was read from the scan, and how sure OCR was of its least certain word.
    for (const result of results) {
      expect(result.provenance).toMatchObject({ source: 'ocr', ocrConfidence: expect.any(Number) });
      expect(result.provenance.ocrConfidence).toBeGreaterThan(0);
      expect(result.provenance.ocrConfidence).toBeLessThanOrEqual(1);
    }
    expect(await jobFiles(jobId)).toEqual([`lab/${jobId}/results.json`]);
  }, 180_000);
});

describe('every terminal state, each reached by a fitting document', () => {
  it('a Spanish report is quarantined', async () => {
    for (const value of SPANISH_REPORT_PHI) phi.add(value);
    const job = await finished(hale, await uploadBase64(hale, await spanishLabReport()));
    expect(job).toMatchObject({ status: 'quarantined', rejection_reason: 'non_english_document' });
    expect(job.stages).not.toHaveProperty('detect_phi');
  });

  it('a report with PHI and rejectIfPHI ends rejected_phi with every file of the job gone', async () => {
    const report = await generateQuestReport({ seed: 103 });
    for (const value of report.truth.phi) phi.add(value);
    const jobId = await uploadBase64(hale, report.pdf, { rejectIfPHI: true });
    const job = await finished(hale, jobId);
    expect(job).toMatchObject({ status: 'rejected_phi' });
    expect(job.phiRedactions).toMatchObject({ name: expect.any(Number) });
    expect(await jobFiles(jobId)).toEqual([]);
    expect((await hale.get(`/extraction/lab/results/${jobId}`)).status).toBe(404);
  });

  it.each([
    ['another lab', 'non_supported_lab', () => generateOtherLabReport({ labName: 'BioReference Laboratories' })],
    [
      'two reports concatenated',
      'multiple_collection_dates',
      async () =>
        concatenated(
          (await generateQuestReport({ seed: 104, collectionDate: '2025-02-03' })).pdf,
          (await generateQuestReport({ seed: 105, collectionDate: '2025-05-06' })).pdf,
        ),
    ],
    ['DD/MM dates', 'non_us_document', async () => (await generateQuestReport({ seed: 106, dayFirstDates: true })).pdf],
    ['an insurance letter', 'non_lab_document', () => generateNonLabDocument({ kind: 'insurance' })],
  ] as const)('%s is an invalid_document (%s)', async (_name, reason, make) => {
    const job = await finished(hale, await uploadBase64(hale, await make()));
    expect(job).toMatchObject({ status: 'invalid_document', rejection_reason: reason });
    expect(job.detected_lab === null || typeof job.detected_lab === 'string').toBe(true);
  });

  it('a scan OCR cannot read fails as unreadable_document and its files are removed', async () => {
    const jobId = await uploadBase64(hale, await scannedDocument());
    const job = await finished(hale, jobId, () => true, 120_000);
    expect(job).toMatchObject({ status: 'failed', error_type: 'unreadable_document' });
    expect(job.results).toBeUndefined();
    expect(job.message).toMatch(/could not be read by OCR/);
    expect(Object.keys(job.stages)).toEqual(['validate_pdf', 'recognize']);
    expect(await jobFiles(jobId)).toEqual([]);
    // An outcome, not a fault: no task failed (no Lambda error) and the execution succeeded.
    expect(await executionEnd(hale, 'lab-extraction', jobId)).toEqual({ status: 'SUCCEEDED', failedStates: [] });
  }, 180_000);

  it('a searchable scan OCR cannot read completes from the text layer hidden in it, each result saying so', async () => {
    const report = await generateQuestReport({ seed: 108, panelCount: 1 });
    for (const value of report.truth.phi) phi.add(value);
    const jobId = await uploadBase64(hale, await unreadableSearchableScan(report.pdf));
    const job = await finished(hale, jobId, () => true, 120_000);
    expect(job.status).toBe('completed');
    expect(Object.keys(job.stages).slice(0, 2)).toEqual(['validate_pdf', 'recognize']);
    const results = job.results!.panels.flatMap((p) => p.panelResults);
    const printed = report.truth.panels.flatMap((p) => p.results).filter((r) => r.pageNumber === 1);
    expect(results.map((r) => [r.biomarker, r.resultValue])).toEqual(printed.map((r) => [r.biomarker, r.resultValue]));
    for (const result of results) expect(result.provenance.source).toBe('text');
    expect(await jobFiles(jobId)).toEqual([`lab/${jobId}/results.json`]);
  }, 180_000);

  it('a PDF with more scanned pages than one report has fails as too_many_pages, before any is recognised', async () => {
    const pages = await PDFDocument.create();
    for (let i = 0; i < 151; i++) pages.addPage([612, 792]);
    const jobId = await uploadBase64(hale, await pages.save());
    const job = await finished(hale, jobId);
    expect(job).toMatchObject({ status: 'failed', error_type: 'too_many_pages' });
    expect(job.message).toMatch(/more than 150 scanned pages/);
    expect(Object.keys(job.stages)).toEqual(['validate_pdf']);
    expect(await jobFiles(jobId)).toEqual([]);
  });

  it('random bytes are refused at upload: 400 invalid_pdf', async () => {
    const response = await hale.post('/extraction/lab/upload', { pdfFile: Buffer.from(Array.from({ length: 4096 }, (_v, i) => (i * 7919) % 256)).toString('base64') });
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_pdf', requestId: expect.any(String), timestamp: expect.any(String) });
  });

  it('a pre-signed upload over 50 MB fails the job with a clear message', async () => {
    const issued = (await hale.post('/extraction/lab/upload', {})).json<{ jobId: string; uploadUrl: string }>();
    const oversized = Buffer.alloc(50 * 1024 * 1024 + 1024);
    oversized.write('%PDF-1.7\n');
    const put = await fetch(issued.uploadUrl, { method: 'PUT', body: oversized, headers: { 'content-type': 'application/pdf' } });
    expect(put.status).toBe(200);
    const job = await finished(hale, issued.jobId);
    expect(job).toMatchObject({ status: 'failed', error_type: 'file_too_large' });
    expect(job.message).toMatch(/larger than the 50 MB/);
    expect(await jobFiles(issued.jobId)).toEqual([]);
  });

  it('an upload that never arrives is expired to failed by the five-minute sweep', async () => {
    const issued = (await hale.post('/extraction/lab/upload', {})).json<{ jobId: string }>();
    const { handler } = await import('../../../functions/lab/steps/end-overdue-jobs');
    // The sweep runs on its schedule's clock; eleven minutes on, this URL and its margin have passed.
    const context = { functionName: 'hale-LabEndOverdueJobs', awsRequestId: 'sweep-test' } as Context;
    const swept = await handler({ time: new Date(Date.now() + 11 * 60_000).toISOString() }, context);
    expect(swept.handedOver).toBeGreaterThanOrEqual(1);
    const job = await finished(hale, issued.jobId);
    expect(job).toMatchObject({ status: 'failed', error_type: 'upload_not_received', message: expect.stringMatching(/No document was uploaded/) });
    // Ended, it has left the open-jobs index: a later sweep does not see it again.
    const open = await jobsRepository().listOverdue('lab', new Date(Date.now() + 24 * 3600_000), 1000);
    expect(open.map((j) => j.jobId)).not.toContain(issued.jobId);
  });
});

describe('no PHI anywhere', () => {
  it('no mock identifier of any fixture appears in a log line, a response body, a jobs-table item or an object left in S3', async () => {
    expect(phi.size).toBeGreaterThan(10);
    // The scan is only meaningful if the workers' log lines were captured.
    expect(output.lines.some((line) => line.includes('lab step done'))).toBe(true);
    const objects = [...(await bucketObjects(aws, hale.buckets.uploads)), ...(await bucketObjects(aws, hale.buckets.artifacts))];
    expect(objects.length).toBeGreaterThan(0);
    const { Items: jobRecords = [] } = await aws.documents.send(new ScanCommand({ TableName: hale.jobsTable }));
    expect(jobRecords.length).toBeGreaterThan(0);
    const places = [
      ...output.lines.map((text) => ({ where: 'log', text })),
      ...jobRecords.map((item) => ({ where: `dynamodb:${String(item.pk)}`, text: JSON.stringify(item) })),
      ...responses.map((r) => ({ where: 'response', text: r.text })),
      ...objects.map((o) => ({ where: `s3:${o.key}`, text: o.text })),
    ];
    expect(output.lines.filter((line) => line.includes(FHIR_SUBJECT.identifier.value))).toEqual([]);
    const leaks = places.flatMap(({ where, text }) => [...phi].filter((value) => text.includes(value)).map((value) => `${where}: ${value}`));
    expect(leaks).toEqual([]);
  });
});
