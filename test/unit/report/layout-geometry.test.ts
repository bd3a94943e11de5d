import { chartGeometry, niceTicks } from '../../../functions/report/layout/chart-geometry';
import { formatDelta, formatMeasurement, formatUnit } from '../../../functions/report/layout/format';
import { rangeBarGeometry } from '../../../functions/report/layout/range-bar';

describe('chart geometry', () => {
  it('picks 1-2-5 ticks that cover the data', () => {
    expect(niceTicks(40.2, 53.5)).toEqual([40, 45, 50, 55]);
    expect(niceTicks(40.2, 53.5, 4)).toEqual([40, 45, 50, 55]);
    expect(niceTicks(0.3, 0.9, 4)).toEqual([0.2, 0.4, 0.6, 0.8, 1]);
    // A single value still gets an axis around it.
    expect(niceTicks(50, 50)).toEqual([49, 49.5, 50, 50.5, 51]);
  });

  it('maps the extreme ticks to the box edges and skips missing values', () => {
    const box = { x: 100, y: 200, width: 300, height: 100 };
    const g = chartGeometry([40, 45, 50], [[41, null, 49]], box);
    expect(g.xTicks[0]!.at).toBe(100);
    expect(g.xTicks[g.xTicks.length - 1]!.at).toBe(400);
    expect(g.yTicks[0]!.at).toBe(200);
    expect(g.lines[0]).toHaveLength(2);
    expect(g.lines[0]![0]!.x).toBe(100);
    expect(g.lines[0]![1]!.x).toBe(400);
  });

  it('keeps a fixed value axis when one is given', () => {
    const g = chartGeometry([40, 50], [[71, 74]], { x: 0, y: 0, width: 100, height: 100 }, [0, 100]);
    expect(g.yTicks.map((t) => t.value)).toEqual([0, 50, 100]);
    expect(g.lines[0]![0]!.y).toBeCloseTo(71);
  });
});

describe('range bar geometry', () => {
  it('places value, bands and mean on one scale with a margin', () => {
    const g = rangeBarGeometry(110, { lab: { low: 70, high: 99 }, optimal: { low: 72, high: 90 }, populationMean: 100 }, 100);
    // Scale 70…110 padded by 5 % (2) on each side: 68…112.
    expect(g.lab!.x0).toBeCloseTo(((70 - 68) / 44) * 100);
    expect(g.lab!.x1).toBeCloseTo(((99 - 68) / 44) * 100);
    expect(g.optimal!.x0).toBeGreaterThan(g.lab!.x0);
    expect(g.mean).toBeCloseTo(((100 - 68) / 44) * 100);
    expect(g.value).toBeCloseTo(((110 - 68) / 44) * 100);
  });

  it('scales a bar without lab or optimal range by the population (1st–99th percentile), not by the value and mean alone', () => {
    const g = rangeBarGeometry(98, { populationMean: 100, population: { low: 60, high: 160 } }, 100);
    // Axis 60…160 padded by 5: 55…165; value and mean 2 apart sit 1.8 % apart, not at the two ends.
    expect(g.value).toBeCloseTo(((98 - 55) / 110) * 100);
    expect(g.mean! - g.value).toBeCloseTo((2 / 110) * 100);
  });

  it('runs an open-ended band to the edge and draws no band that is unknown', () => {
    const g = rangeBarGeometry(45, { lab: { low: 60, high: null } }, 80);
    expect(g.lab!.x1).toBe(80);
    expect(g.value).toBeLessThan(g.lab!.x0);
    expect(g.optimal).toBeUndefined();
    expect(g.mean).toBeUndefined();
  });
});

describe('formatting', () => {
  it('prints lab values with three significant digits (whole numbers from 100 up), as the widget does', () => {
    expect(formatMeasurement(105)).toBe('105');
    expect(formatMeasurement(1276.4)).toBe('1276');
    expect(formatMeasurement(0.123456)).toBe('0.123');
    expect(formatMeasurement(4.60)).toBe('4.6');
    expect(formatMeasurement('female')).toBe('female');
  });

  it('signs changes with a true minus and shows readable units', () => {
    expect(formatDelta(-0.84)).toBe('−0.8');
    expect(formatDelta(1.26)).toBe('+1.3');
    expect(formatDelta(0.01)).toBe('0.0');
    expect(formatUnit('umol/L')).toBe('µmol/L');
    expect(formatUnit('10*3/uL')).toBe('×10³/µL');
    expect(formatUnit('mg/dL')).toBe('mg/dL');
  });
});
