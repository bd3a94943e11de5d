import peersFile from '../../data/population/peers.json';
import type { Sex } from './models/types';
import type { BandPeers, PeerTablesFile } from './population-tables';
import type { DiseaseCode } from './schemas';
import { percentileOf } from './statistics';

/**
 * Same-sex peers of a domain at any age (data/population/peers.json, parsed once per container).
 * Each 5-year band sits at its peers' weighted mean age; between two such ages every peer figure
 * (quantiles, peer inputs, outcome medians) is interpolated linearly, and beyond the first and last
 * it is the edge band's, so that nothing jumps when a person's age crosses a band boundary.
 */

const PEERS = peersFile as unknown as PeerTablesFile;

/** Where a person's disease age came from, relative to the peer data. */
export type CurvePosition = 'interpolated' | 'below_peer_data' | 'above_peer_data';

/**
 * Same-sex peers at one exact age: the two bands around it and the weight of the upper one. Figures
 * are mixed on demand, so that scoring a domain allocates no interpolated copy of the quantiles.
 */
export class PeersAt {
  /** Median severity: the peer curve at this age. */
  readonly median: number;
  /** Half the interquartile range of the severity: (q75 − q25) / 2, the health score's unit. */
  readonly scale: number;

  constructor(
    private readonly a: BandPeers,
    private readonly b: BandPeers,
    private readonly w: number,
  ) {
    this.median = this.quantile(50);
    this.scale = Math.max((this.quantile(75) - this.quantile(25)) / 2, Number.EPSILON);
  }

  private mix(x: number, y: number): number {
    return x + (y - x) * this.w;
  }

  /** The severity at percent `i` (0–100). */
  quantile(i: number): number {
    return this.mix(this.a.quantiles[i]!, this.b.quantiles[i]!);
  }

  /** Percentile rank (0–100) of a severity among these peers (statistics.ts `percentileOf`). */
  percentile(severity: number): number {
    return percentileOf(this, severity);
  }

  /** Peer value of a model input (median, or prevalence for yes/no inputs). */
  input(key: string): number {
    return this.mix(this.a.peer_inputs[key]!, this.b.peer_inputs[key]!);
  }

  /** Peers' 10th and 90th percentile of a continuous input. */
  spread(key: string): [number, number] {
    const [lowA, highA] = this.a.input_spread[key]!;
    const [lowB, highB] = this.b.input_spread[key]!;
    return [this.mix(lowA, lowB), this.mix(highA, highB)];
  }

  /** Median link value of a further outcome; undefined when no band around this age tabulates it. */
  outcomeMedian(key: string): number | undefined {
    const x = this.a.outcome_medians[key];
    const y = this.b.outcome_medians[key];
    if (x === undefined && y === undefined) return undefined;
    // A band the outcome does not cover (30-year risks end at 59) lends the other band's value.
    return this.mix(x ?? y!, y ?? x!);
  }
}

export class PeerTable {
  /** Band positions on the age axis, increasing. */
  readonly ages: number[];
  /** Median severity per band, non-decreasing with age. */
  readonly medians: number[];

  constructor(readonly bands: readonly BandPeers[]) {
    this.ages = bands.map((b) => b.mean_age);
    this.medians = bands.map((b) => b.quantiles[50]!);
  }

  /** Peers at `age`: the two bands whose ages bracket it, or the edge band beyond the first and last. */
  at(age: number): PeersAt {
    const last = this.bands.length - 1;
    if (age <= this.ages[0]!) return new PeersAt(this.bands[0]!, this.bands[0]!, 0);
    if (age >= this.ages[last]!) return new PeersAt(this.bands[last]!, this.bands[last]!, 0);
    let i = 0;
    while (this.ages[i + 1]! < age) i++;
    return new PeersAt(this.bands[i]!, this.bands[i + 1]!, (age - this.ages[i]!) / (this.ages[i + 1]! - this.ages[i]!));
  }

  /**
   * The age at which the median peer has `severity`: the inverted peer curve inside the peer data,
   * the edge band's age beyond it (with the position saying which edge).
   */
  ageOf(severity: number): { age: number; position: CurvePosition } {
    const last = this.bands.length - 1;
    if (severity < this.medians[0]!) return { age: this.ages[0]!, position: 'below_peer_data' };
    if (severity > this.medians[last]!) return { age: this.ages[last]!, position: 'above_peer_data' };
    // On a flat run (bands pooled to keep the curve monotone) every age of the run fits: take its middle.
    const first = this.medians.indexOf(severity);
    if (first >= 0) {
      const lastEqual = this.medians.lastIndexOf(severity);
      return { age: (this.ages[first]! + this.ages[lastEqual]!) / 2, position: 'interpolated' };
    }
    let i = 0;
    while (this.medians[i + 1]! < severity) i++;
    const w = (severity - this.medians[i]!) / (this.medians[i + 1]! - this.medians[i]!);
    return { age: this.ages[i]! + (this.ages[i + 1]! - this.ages[i]!) * w, position: 'interpolated' };
  }
}

const tables: Partial<Record<DiseaseCode, Record<Sex, PeerTable>>> = {};

export function peerTable(code: DiseaseCode, sex: Sex): PeerTable {
  let byDomain = tables[code];
  if (!byDomain) {
    byDomain = { male: new PeerTable(PEERS.domains[code].male), female: new PeerTable(PEERS.domains[code].female) };
    tables[code] = byDomain;
  }
  return byDomain[sex];
}
