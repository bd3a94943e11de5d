import { biologicalAge, decimal, displayDate, displayUnit, measurement, ordinal, peerValue, percent, ratio, signed, withUnit, years } from '../../../widget/format';

describe('widget number and unit formatting', () => {
  it.each([
    ['10*3/uL', '×10³/µL'],
    ['10*9/L', '×10⁹/L'],
    ['mm[Hg]', 'mmHg'],
    ['mL/min/{1.73_m2}', 'mL/min/1.73 m²'],
    ['kg/m2', 'kg/m²'],
    ['umol/L', 'µmol/L'],
    ['mg/dL', 'mg/dL'],
    ['U/L', 'U/L'],
    ['a', 'years'],
    ['', ''],
  ])('shows UCUM %s as %s', (ucum, shown) => {
    expect(displayUnit(ucum)).toBe(shown);
  });

  it('writes values with their unit, percentages without a space', () => {
    expect(withUnit(6.2, '10*3/uL')).toBe('6.2 ×10³/µL');
    expect(withUnit(13.14, '%')).toBe('13.1%');
    expect(withUnit(240, 'x')).toBe('240 x');
    expect(withUnit('male', '')).toBe('male');
    expect(withUnit(0.987, 'mg/dL')).toBe('0.987 mg/dL');
  });

  it('reads unitless 1/0 inputs as yes/no, and their peer mean as the share of peers with it', () => {
    expect(withUnit(1, '')).toBe('yes');
    expect(withUnit(0, '')).toBe('no');
    expect(withUnit(1, 'mg/dL')).toBe('1 mg/dL');
    expect(peerValue(0.195897, '')).toBe('20% of peers');
    expect(peerValue(106.2, 'mg/dL')).toBe('106 mg/dL');
  });

  it('rounds, signs and orders numbers for people', () => {
    expect(decimal(57.149)).toBe('57.1');
    expect(decimal(100)).toBe('100');
    expect(signed(-1.86)).toBe('\u22121.9');
    expect(signed(0.6)).toBe('+0.6');
    expect(signed(-0.01)).toBe('0');
    expect(percent(0.0482)).toBe('4.82%');
    expect(percent(0.004)).toBe('0.4%');
    expect(percent(0.001234)).toBe('0.123%');
    expect(percent(1)).toBe('100%');
    expect(ratio(0.767838)).toBe('0.768×');
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 76.2, 100].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '76th', '100th']);
    expect(years(1.02)).toBe('1 year');
    expect(years(6.6)).toBe('6.6 years');
    expect(displayDate('2025-05-20')).toBe('20 May 2025');
  });

  it('rounds measurements to three significant digits for reading, whole numbers from 100 up', () => {
    expect([0.0966, 0.123456, 6.545, 45.31, 99.96, 105.49, 1276, 0].map(measurement)).toEqual(['0.0966', '0.123', '6.54', '45.3', '100', '105', '1276', '0']);
    expect(measurement(4.6)).toBe('4.6');
  });

  it('reads a disease age at the edge of the peer data as a bound', () => {
    expect(biologicalAge(85.67, 'above_peer_data')).toBe('≥ 85.7');
    expect(biologicalAge(46.6, 'below_peer_data')).toBe('≤ 46.6');
    expect(biologicalAge(51.19, 'interpolated')).toBe('51.2');
  });
});
