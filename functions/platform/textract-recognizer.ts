import { AnalyzeDocumentCommand, type Block, TextractClient } from '@aws-sdk/client-textract';
import { pngOf } from '../lab/ocr/page-image';
import type { PageImage, RecognizedWord, TextRecognizer } from '../lab/ocr/recognizer';
import { config } from './config';
import { tracedInAws } from './observability';

/**
 * The Amazon Textract adapter of the OCR port (HALE_OCR_ENGINE=textract): AnalyzeDocument with the
 * TABLES feature on each rendered, deskewed page. One synchronous call per page image (PNG, under the
 * 10 MB and 10,000-pixel limits of the synchronous API), so a multi-page PDF needs neither the
 * asynchronous StartDocumentAnalysis nor an S3 hand-off and its polling; the price per page is the
 * same. Words come back with their boxes and confidences; where Textract found a table, the words of
 * one cell on one line are joined into one item, so the reader gets the table's own column split.
 */

type TextractSend = Pick<TextractClient, 'send'>;

function wordOf(block: Block, image: PageImage): RecognizedWord | undefined {
  const box = block.Geometry?.BoundingBox;
  if (!block.Text || !box || box.Left === undefined || box.Top === undefined || box.Width === undefined || box.Height === undefined) return undefined;
  return {
    text: block.Text,
    x0: pixels(box.Left * image.width),
    y0: pixels(box.Top * image.height),
    x1: pixels((box.Left + box.Width) * image.width),
    y1: pixels((box.Top + box.Height) * image.height),
    confidence: (block.Confidence ?? 0) / 100,
  };
}

/** Textract's box edges are ratios of the page; a hundredth of a pixel is precision enough. */
function pixels(value: number): number {
  return Math.round(value * 100) / 100;
}

function children(block: Block): string[] {
  return (block.Relationships ?? []).filter((r) => r.Type === 'CHILD').flatMap((r) => r.Ids ?? []);
}

function joined(words: RecognizedWord[]): RecognizedWord {
  const sorted = [...words].sort((a, b) => a.x0 - b.x0);
  return {
    text: sorted.map((w) => w.text).join(' '),
    x0: Math.min(...sorted.map((w) => w.x0)),
    y0: Math.min(...sorted.map((w) => w.y0)),
    x1: Math.max(...sorted.map((w) => w.x1)),
    y1: Math.max(...sorted.map((w) => w.y1)),
    confidence: Math.min(...sorted.map((w) => w.confidence)),
  };
}

/** Words of a Textract answer, a table cell's words on one line joined (see above). */
export function wordsOfBlocks(blocks: readonly Block[], image: PageImage): RecognizedWord[] {
  const words = new Map<string, RecognizedWord>();
  const lineOf = new Map<string, string>();
  for (const block of blocks) {
    if (block.BlockType === 'WORD' && block.Id) {
      const word = wordOf(block, image);
      if (word) words.set(block.Id, word);
    }
    if (block.BlockType === 'LINE' && block.Id) for (const id of children(block)) lineOf.set(id, block.Id);
  }
  const out: RecognizedWord[] = [];
  const used = new Set<string>();
  for (const cell of blocks.filter((b) => b.BlockType === 'CELL')) {
    const byLine = new Map<string, RecognizedWord[]>();
    for (const id of children(cell)) {
      const word = words.get(id);
      if (!word || used.has(id)) continue;
      used.add(id);
      const line = lineOf.get(id) ?? id;
      byLine.set(line, [...(byLine.get(line) ?? []), word]);
    }
    for (const group of byLine.values()) out.push(joined(group));
  }
  for (const [id, word] of words) if (!used.has(id)) out.push(word);
  return out;
}

export class TextractRecognizer implements TextRecognizer {
  readonly engine = 'textract';
  constructor(private readonly client: TextractSend) {}

  async recognize(image: PageImage): Promise<RecognizedWord[]> {
    const out = await this.client.send(new AnalyzeDocumentCommand({ Document: { Bytes: await pngOf(image) }, FeatureTypes: ['TABLES'] }));
    return wordsOfBlocks(out.Blocks ?? [], image);
  }
}

let client: TextractClient | undefined;

/** The recogniser on one Textract client per container, traced by X-Ray in AWS like the other clients. */
export function textractRecognizer(): TextRecognizer {
  if (!client) {
    client = tracedInAws(new TextractClient({ region: config().AWS_REGION }));
  }
  return new TextractRecognizer(client);
}
