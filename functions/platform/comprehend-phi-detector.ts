import { ComprehendMedicalClient, DetectPHICommand, type Entity } from '@aws-sdk/client-comprehendmedical';
import type { PhiCategory, PhiDetector, PhiSpan } from '../lab/phi/categories';
import { config } from './config';
import { tracedInAws } from './observability';

/**
 * The AWS twin of the PHI port: Amazon Comprehend Medical DetectPHI. Each request takes fewer than
 * 20,000 bytes of UTF-8 text (DetectPHI API reference), so the document is cut at line ends into
 * chunks under that size and the entity offsets are shifted back. Every entity counts, whatever its
 * score: AWS advises a low threshold when the values are removed rather than used.
 */
export const DETECT_PHI_MAX_BYTES = 20_000;

const CATEGORY_OF_TYPE: Record<string, PhiCategory> = {
  NAME: 'name',
  DATE: 'date',
  AGE: 'age',
  ADDRESS: 'address',
  PHONE_OR_FAX: 'phone',
  EMAIL: 'email',
  ID: 'identifier',
  URL: 'url',
  PROFESSION: 'other',
};

/** Chunks of `text` (with their offsets), each under `maxBytes` of UTF-8, cut after a newline where possible. */
export function chunkText(text: string, maxBytes = DETECT_PHI_MAX_BYTES): { offset: number; text: string }[] {
  const chunks: { offset: number; text: string }[] = [];
  let offset = 0;
  while (offset < text.length) {
    let end = offset;
    let bytes = 0;
    let lastNewline = -1;
    while (end < text.length) {
      const code = text.codePointAt(end)!;
      const width = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      if (bytes + width >= maxBytes) break;
      bytes += width;
      end += code >= 0x10000 ? 2 : 1;
      if (code === 0x0a) lastNewline = end;
    }
    if (end < text.length && lastNewline > offset) end = lastNewline;
    chunks.push({ offset, text: text.slice(offset, end) });
    offset = end;
  }
  return chunks;
}

type ComprehendSend = Pick<ComprehendMedicalClient, 'send'>;

export class ComprehendPhiDetector implements PhiDetector {
  constructor(private readonly client: ComprehendSend) {}

  async detect(text: string): Promise<PhiSpan[]> {
    const spans: PhiSpan[] = [];
    for (const chunk of chunkText(text)) {
      if (chunk.text.trim() === '') continue;
      const out = await this.client.send(new DetectPHICommand({ Text: chunk.text }));
      for (const entity of out.Entities ?? []) {
        const span = toSpan(entity, chunk.offset);
        if (span) spans.push(span);
      }
    }
    return spans;
  }
}

function toSpan(entity: Entity, offset: number): PhiSpan | undefined {
  if (entity.BeginOffset === undefined || entity.EndOffset === undefined) return undefined;
  return { start: offset + entity.BeginOffset, end: offset + entity.EndOffset, category: CATEGORY_OF_TYPE[entity.Type ?? ''] ?? 'other' };
}

let client: ComprehendMedicalClient | undefined;

/** The detector on one ComprehendMedical client per container, traced by X-Ray in AWS like the other clients (aws-clients.ts). */
export function comprehendPhiDetector(): PhiDetector {
  if (!client) {
    client = tracedInAws(new ComprehendMedicalClient({ region: config().AWS_REGION }));
  }
  return new ComprehendPhiDetector(client);
}
