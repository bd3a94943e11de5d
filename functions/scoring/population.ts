import mediansFile from '../../data/population/medians.json';
import peersFile from '../../data/population/peers.json';
import type { Sex } from './models/types';
import { type BandPeers, bandIndex, type MediansFile, type PeerTablesFile } from './population-tables';
import type { DiseaseCode } from './schemas';
import { interpolate } from './statistics';

/**
 * Peer tables and imputation medians (data/population/), parsed once per container at module load.
 * The peer curve of a domain is its band means placed at each band's weighted mean age and joined
 * log-linearly (extended along the end segments), so peer values change smoothly with age.
 */

const PEERS = peersFile as PeerTablesFile;
const MEDIANS = mediansFile as MediansFile;

export class PeerCurve {
  readonly ages: number[];
  /** log(curve value) per band, monotone in age. */
  private readonly logValues: number[];
  /** log(curve value) × direction: non-decreasing, for inversion. */
  private readonly rising: number[];
  private readonly direction: 1 | -1;
  /** AGE_BANDS index of each band of this table. */
  private readonly bandIndices: number[];

  constructor(
    readonly bands: readonly BandPeers[],
    higherIsWorse: boolean,
  ) {
    this.ages = bands.map((b) => b.mean_age);
    this.logValues = bands.map((b) => Math.log(b.curve_value));
    this.direction = higherIsWorse ? 1 : -1;
    this.rising = this.logValues.map((v) => v * this.direction);
    this.bandIndices = bands.map((b) => bandIndex(Number.parseInt(b.band, 10)));
  }

  /** The band (of this domain's table) holding `age`; the nearest band when `age` lies outside the table. */
  band(age: number): BandPeers {
    const index = bandIndex(age);
    let best = 0;
    for (let i = 1; i < this.bands.length; i++) {
      if (Math.abs(this.bandIndices[i]! - index) < Math.abs(this.bandIndices[best]! - index)) best = i;
    }
    return this.bands[best]!;
  }

  /** Average peer value at `age`. */
  valueAt(age: number): number {
    return Math.exp(extrapolated(this.ages, this.logValues, age));
  }

  /** Age at which the average peer has `value` (unclamped; linear in log value beyond the end bands). */
  ageAt(value: number): number {
    return extrapolated(this.rising, this.ages, Math.log(value) * this.direction);
  }
}

/** Piecewise-linear through (xs, ys), continued along the first/last non-flat segment beyond the ends. */
function extrapolated(xs: readonly number[], ys: readonly number[], x: number): number {
  const last = xs.length - 1;
  if (last === 0) return ys[0]!;
  if (x >= xs[0]! && x <= xs[last]!) {
    // On a flat run (bands pooled to keep the curve monotone) every age of the run fits: take its middle.
    const first = xs.indexOf(x);
    const lastEqual = first < 0 ? -1 : xs.lastIndexOf(x);
    if (lastEqual > first) return (ys[first]! + ys[lastEqual]!) / 2;
    return interpolate(xs, ys, x);
  }
  const [i, j] = x < xs[0]! ? endSegment(xs, 0, 1) : endSegment(xs, last, -1);
  const slope = (ys[j]! - ys[i]!) / (xs[j]! - xs[i]!);
  return ys[i]! + slope * (x - xs[i]!);
}

/** The first pair of points, walking inwards from `start`, whose xs differ. */
function endSegment(xs: readonly number[], start: number, step: 1 | -1): [number, number] {
  let j = start + step;
  while (j > 0 && j < xs.length - 1 && xs[j] === xs[start]) j += step;
  return [start, j];
}

const curves: Partial<Record<DiseaseCode, Record<Sex, PeerCurve>>> = {};

export function peerCurve(code: DiseaseCode, sex: Sex, higherIsWorse: boolean): PeerCurve {
  let byDomain = curves[code];
  if (!byDomain) {
    byDomain = {
      male: new PeerCurve(PEERS.domains[code].male, higherIsWorse),
      female: new PeerCurve(PEERS.domains[code].female, higherIsWorse),
    };
    curves[code] = byDomain;
  }
  return byDomain[sex];
}

/** Same-sex, same-band weighted median of a continuous predictor (population_median imputation). */
export function populationMedian(key: string, sex: Sex, age: number): number | undefined {
  return MEDIANS.medians[key]?.[sex][bandIndex(age)];
}
