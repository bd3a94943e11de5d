import type { DetectPHICommand } from '@aws-sdk/client-comprehendmedical';
import { ComprehendPhiDetector, chunkText, DETECT_PHI_MAX_BYTES } from '../../../../functions/platform/comprehend-phi-detector';

describe('Comprehend Medical PHI adapter', () => {
  it('cuts text at line ends into chunks under the DetectPHI byte limit, covering all of it', () => {
    const line = `${'Glucose 105 mg/dL é '.repeat(40)}\n`;
    const text = line.repeat(60);
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(Buffer.byteLength(chunk.text, 'utf8')).toBeLessThan(DETECT_PHI_MAX_BYTES);
      expect(chunk.text.endsWith('\n')).toBe(true);
    }
    expect(chunks.map((c) => c.text).join('')).toBe(text);
    expect(chunks.map((c) => c.offset)).toEqual(chunks.map((_c, i) => chunks.slice(0, i).reduce((n, c) => n + c.text.length, 0)));
  });

  it('maps entity types to categories and offsets back into the whole text', async () => {
    const filler = `${'x'.repeat(199)}\n`.repeat(110);
    const text = `${filler}Patient: JANE DOE\n`;
    const sent: string[] = [];
    const client = {
      send: async (command: DetectPHICommand) => {
        const chunk = command.input.Text!;
        sent.push(chunk);
        const at = chunk.indexOf('JANE DOE');
        return { Entities: at < 0 ? [] : [{ BeginOffset: at, EndOffset: at + 8, Type: 'NAME', Category: 'PROTECTED_HEALTH_INFORMATION', Score: 0.99 }] };
      },
    };
    // biome-ignore lint/suspicious/noExplicitAny: the stub implements only `send`, all the adapter uses
    const spans = await new ComprehendPhiDetector(client as any).detect(text);
    expect(sent.length).toBe(2);
    expect(spans).toEqual([{ start: text.indexOf('JANE DOE'), end: text.indexOf('JANE DOE') + 8, category: 'name' }]);
  });
});
