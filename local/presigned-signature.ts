import { createHash, createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The signature check S3 makes on a pre-signed (query-string SigV4) request, which s3rver skips: the
 * signature is computed again from the request as it arrives — method, path, query, and the values of
 * the headers the URL signed (X-Amz-SignedHeaders) — and a request that differs from the one signed
 * is refused with 403 SignatureDoesNotMatch, as S3 refuses it. So a URL that signs Content-Type or
 * Content-Length takes only an upload with exactly that type and that size, locally as on AWS.
 * (Expiry and the access key id stay s3rver's checks; requests signed in the Authorization header are
 * not checked here.)
 */

const ALGORITHM = 'AWS4-HMAC-SHA256';

/** RFC 3986 encoding, as SigV4 canonicalises query names and values. */
function encode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function hmac(key: string | Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text, 'utf8').digest();
}

export interface PresignedRequest {
  method: string;
  /** The request target as received: path and query, still encoded. */
  url: string;
  headers: IncomingMessage['headers'];
}

/** Whether the request carries a query-string SigV4 signature. */
export function isPresigned(url: string): boolean {
  const query = url.indexOf('?');
  return query >= 0 && new URLSearchParams(url.slice(query + 1)).has('X-Amz-Signature');
}

/** The signature the request should carry, given the secret key of the access key that signed it. */
export function expectedSignature(request: PresignedRequest, secretAccessKey: string): string {
  const queryStart = request.url.indexOf('?');
  const path = queryStart >= 0 ? request.url.slice(0, queryStart) : request.url;
  const params = [...new URLSearchParams(queryStart >= 0 ? request.url.slice(queryStart + 1) : '')];
  const get = (name: string) => params.find(([key]) => key === name)?.[1] ?? '';
  const signedHeaders = get('X-Amz-SignedHeaders');
  const canonicalQuery = params
    .filter(([key]) => key !== 'X-Amz-Signature')
    .map(([key, value]) => [encode(key), encode(value)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .split(';')
    .map((name) => {
      const value = request.headers[name];
      const text = Array.isArray(value) ? value.join(',') : (value ?? '');
      return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const payloadHash = get('X-Amz-Content-Sha256') || 'UNSIGNED-PAYLOAD';
  const canonicalRequest = [request.method, path, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  // Credential = <access key id>/<date>/<region>/<service>/aws4_request
  const [, date = '', region = '', service = ''] = get('X-Amz-Credential').split('/');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = [ALGORITHM, get('X-Amz-Date'), scope, createHash('sha256').update(canonicalRequest, 'utf8').digest('hex')].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), service), 'aws4_request');
  return hmac(signingKey, stringToSign).toString('hex');
}

const SIGNATURE_DOES_NOT_MATCH =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided. Check your key and signing method.</Message></Error>';

/** Refuses a pre-signed request whose signature does not match it; passes everything else on. */
export function withPresignedSignatures(handle: RequestListener, secretAccessKey: string): RequestListener {
  return (req, res) => {
    const url = req.url ?? '/';
    if (!isPresigned(url)) return handle(req, res);
    const given = new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('X-Amz-Signature');
    if (given === expectedSignature({ method: req.method ?? 'GET', url, headers: req.headers }, secretAccessKey)) return handle(req, res);
    // S3 answers before reading the body; the connection is closed so an unread upload is not drained.
    res.writeHead(403, { 'content-type': 'application/xml', connection: 'close' }).end(SIGNATURE_DOES_NOT_MATCH);
    req.resume();
  };
}
