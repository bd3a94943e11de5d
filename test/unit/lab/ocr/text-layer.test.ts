import fc from 'fast-check';
import { isRecognisableToken, textLayerVerdict } from '../../../../functions/lab/ocr/text-layer';

const items = (...lines: string[]) => lines.map((str) => ({ str }));

describe('textLayerVerdict', () => {
  it('reads a lab page as usable: names, numbers, ranges, units, flags, dates', () => {
    const page = items(
      'Test Name In Range Out Of Range Reference Range Lab',
      'COMPREHENSIVE METABOLIC PANEL Z4M',
      'GLUCOSE 127 H 65-99 mg/dL Z4M',
      'EGFR 105 > OR = 60 mL/min/1.73m2 Z4M',
      'Hemoglobin A1c 5.6 % 4.8-5.6 01',
      'Collected: 03/04/2024 07:29 AM UTC',
      'WBC x10E3/uL 7.9 3.4-10.8 [REDACTED] (calc)',
    );
    expect(textLayerVerdict(page)).toBe('usable');
  });

  it('finds no usable text on an empty page or one of control characters and symbol runs (a font without a Unicode map)', () => {
    expect(textLayerVerdict([])).toBe('unusable');
    expect(textLayerVerdict(items('   '))).toBe('unusable');
    expect(textLayerVerdict(items('\u0003\u0011\u0007 \u0012\u0004', '!"#$% &\'*+ ,-./', '\ue001\ue002\ue003 \ue004'))).toBe('unusable');
    expect(textLayerVerdict(items('Xqsbo Bzzkqt Wkhqx Pzzrt Qwwbx Zxqq Plmnrt Sdfghj Kjhgf Qwrtz'))).toBe('unusable');
  });

  it('calls a page with only a few recognisable tokens sparse (a scan may carry a stamped line)', () => {
    expect(textLayerVerdict(items('Page 1 of 3', 'Fax received 03/04/2024'))).toBe('sparse');
  });

  it('holds for any page of real tokens mixed with up to a third of junk', () => {
    const real = fc.constantFrom('GLUCOSE', '127', 'H', '65-99', 'mg/dL', 'Reference', 'Interval', '03/04/2024', 'x10E3/uL', '<0.5', 'Negative', '(calc)', 'Labcorp');
    const junk = fc.string({ unit: fc.constantFrom('\u0001', '\u0002', '#', '$', '%', '\ue000', '~', '^'), minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(real, { minLength: 40, maxLength: 120 }), fc.array(junk, { maxLength: 19 }), (words, noise) => {
        fc.pre(noise.length <= words.length / 3);
        expect(textLayerVerdict(items([...words, ...noise].join(' ')))).toBe('usable');
      }),
    );
  });

  it('recognises tokens by shape', () => {
    for (const token of ['GLUCOSE', 'mmol/L', '4.3', '<0.5', '>60', '10/20/2024', '36-130', '"High",', 'TIBC', 'Non-Reactive']) {
      expect(isRecognisableToken(token)).toBe(true);
    }
    for (const token of ['\u0003\u0004', '#$%&', 'Bzzkqtx', '\ue011']) expect(isRecognisableToken(token)).toBe(false);
  });
});
