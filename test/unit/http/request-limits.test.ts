import { API_GATEWAY_REQUEST_LINE_AND_HEADERS_BYTES, base64Length, LAMBDA_SYNC_PAYLOAD_BYTES, MAX_REQUEST_BODY_BYTES } from '../../../functions/http/request-limits';
import { UPLOAD_LIMITS } from '../../../functions/platform/resources';
import { ROUTES } from '../../../functions/routes';
import { toProxyEvent } from '../../../local/api-gateway-event';

/** Fields of API Gateway's requestContext that the local event leaves out (domain name, extended id, times…), generously. */
const CONTEXT_THE_LOCAL_EVENT_OMITS_BYTES = 4096;

describe('the request body limit', () => {
  const upload = ROUTES.find((route) => route.id === 'LabUpload')!;

  it('lets the largest inline PDF through with every other upload field at its longest', () => {
    const body = {
      pdfFile: 'A'.repeat(base64Length(UPLOAD_LIMITS.inlinePdfMaxBytes)),
      filename: '\u{1F4C4}'.repeat(255),
      dateOfBirth: '1980-01-31',
      webhookUrl: `https://hooks.example.com/${'x'.repeat(2048 - 26)}`,
      rejectIfPHI: false,
    };
    // Escaped, as JSON.stringify writes non-ASCII when a client asks it to: the longest form.
    const text = JSON.stringify(body).replace(/[\u{10000}-\u{10FFFF}]/gu, (c) => `\\u${c.charCodeAt(0).toString(16)}\\u${c.charCodeAt(1).toString(16)}`);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_REQUEST_BODY_BYTES);
  });

  it('keeps the Lambda event of the largest body and the largest headers within the synchronous payload limit', () => {
    // The request line and headers API Gateway allows, spent on one long header (the event repeats it).
    const rawHeaders = ['content-type', 'application/json', 'x-padding', 'p'.repeat(API_GATEWAY_REQUEST_LINE_AND_HEADERS_BYTES - 200)];
    // A body of exactly the limit whose every byte needs no escaping in the event, as base64 does not.
    const body = Buffer.from(`{"pdfFile":"${'A'.repeat(MAX_REQUEST_BODY_BYTES - 14)}"}`);
    expect(body.length).toBe(MAX_REQUEST_BODY_BYTES);
    const event = toProxyEvent(upload, null, {
      method: 'POST',
      path: '/extraction/lab/upload',
      query: '',
      rawHeaders,
      body,
      sourceIp: '203.0.113.9',
      requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
      receivedAt: new Date(),
      apiKey: 'k'.repeat(40),
    });
    const eventBytes = Buffer.byteLength(JSON.stringify(event)) + CONTEXT_THE_LOCAL_EVENT_OMITS_BYTES;
    expect(eventBytes).toBeLessThan(LAMBDA_SYNC_PAYLOAD_BYTES);
    // The margin left for JSON bodies whose quotes the event escapes once more.
    expect(LAMBDA_SYNC_PAYLOAD_BYTES - eventBytes).toBeGreaterThan(500_000);
  });

  it('is the inline PDF limit in base64 plus room for the fields, and both are below what API Gateway takes (10 MB)', () => {
    expect(UPLOAD_LIMITS.inlinePdfMaxBytes).toBe(4 * 1024 * 1024);
    expect(MAX_REQUEST_BODY_BYTES).toBeGreaterThan(base64Length(UPLOAD_LIMITS.inlinePdfMaxBytes));
    expect(MAX_REQUEST_BODY_BYTES - base64Length(UPLOAD_LIMITS.inlinePdfMaxBytes)).toBeLessThanOrEqual(16 * 1024);
    expect(MAX_REQUEST_BODY_BYTES).toBeLessThan(10 * 1024 * 1024);
  });
});
