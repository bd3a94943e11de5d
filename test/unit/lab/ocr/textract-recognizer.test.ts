import type { AnalyzeDocumentCommand, Block } from '@aws-sdk/client-textract';
import { TextractRecognizer, wordsOfBlocks } from '../../../../functions/platform/textract-recognizer';

const image = { width: 1000, height: 2000, dpi: 300, grey: new Uint8Array(1000 * 2000).fill(255) };

function word(id: string, text: string, left: number, top: number, confidence = 99): Block {
  return { BlockType: 'WORD', Id: id, Text: text, Confidence: confidence, Geometry: { BoundingBox: { Left: left, Top: top, Width: 0.05, Height: 0.01 } } };
}

const BLOCKS: Block[] = [
  { BlockType: 'PAGE', Id: 'p' },
  { BlockType: 'LINE', Id: 'l1', Relationships: [{ Type: 'CHILD', Ids: ['w1', 'w2', 'w3'] }] },
  word('w1', 'UREA', 0.1, 0.3),
  word('w2', 'NITROGEN', 0.16, 0.3, 91),
  word('w3', '18', 0.5, 0.3),
  word('w4', 'Page', 0.1, 0.95),
  { BlockType: 'TABLE', Id: 't', Relationships: [{ Type: 'CHILD', Ids: ['c1', 'c2'] }] },
  { BlockType: 'CELL', Id: 'c1', Relationships: [{ Type: 'CHILD', Ids: ['w1', 'w2'] }] },
  { BlockType: 'CELL', Id: 'c2', Relationships: [{ Type: 'CHILD', Ids: ['w3'] }] },
];

describe('Textract adapter', () => {
  it('asks AnalyzeDocument with TABLES for the page as PNG, and answers words in image pixels', async () => {
    const sent: AnalyzeDocumentCommand[] = [];
    const recognizer = new TextractRecognizer({
      send: async (command: AnalyzeDocumentCommand) => {
        sent.push(command);
        return { Blocks: BLOCKS };
      },
    } as never);
    const words = await recognizer.recognize(image);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.input.FeatureTypes).toEqual(['TABLES']);
    expect(Buffer.from(sent[0]!.input.Document!.Bytes!).subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(words).toContainEqual({ text: 'Page', x0: 100, y0: 1900, x1: 150, y1: 1920, confidence: 0.99 });
  });

  it("joins a table cell's words on one line into one item, with the lowest confidence", () => {
    const words = wordsOfBlocks(BLOCKS, image);
    expect(words.map((w) => w.text)).toEqual(['UREA NITROGEN', '18', 'Page']);
    expect(words[0]).toMatchObject({ x0: 100, x1: 210, confidence: 0.91 });
  });
});
