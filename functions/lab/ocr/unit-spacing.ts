import { PRINTED_UNITS } from './normalise-word';

/**
 * A unit of more than one word read from a scan with its spaces misjudged: the engine runs two words
 * together where the space is narrow (`% oftotal Hgb`, `%of total Hgb`) or parts one word at a wide
 * side bearing. A unit that is no printed unit of the unit table (data/lab/unit-to-ucum.json) but
 * spells exactly one of them with spaces aside is that unit; two such units (`mL/min/1.73m2` and
 * `mL/min/1.73 m2` are both printed) leave it as read.
 */

const unspaced = (text: string) => text.replace(/\s+/g, '');

const BY_UNSPACED = new Map<string, string[]>();
for (const unit of PRINTED_UNITS) BY_UNSPACED.set(unspaced(unit), [...(BY_UNSPACED.get(unspaced(unit)) ?? []), unit]);

/** The unit table's spelling of a unit read with its spaces misjudged, or the unit as read. */
export function respacedUnit(unit: string): string {
  if (PRINTED_UNITS.has(unit)) return unit;
  const printed = BY_UNSPACED.get(unspaced(unit));
  return printed?.length === 1 ? printed[0]! : unit;
}
