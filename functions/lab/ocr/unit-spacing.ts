import { isPrintedUnit } from '../ucum/to-ucum';
import { PRINTED_UNITS } from './normalise-word';

/**
 * A unit of more than one word read from a scan with its spaces misjudged: the engine runs two words
 * together where the space is narrow (`% oftotal Hgb`, `%of total Hgb`) or parts one word at a wide
 * side bearing. A unit that is no printed unit of the unit table (data/lab/unit-to-ucum.json) but
 * spells exactly one of them with spaces aside is that unit; two such units (`mL/min/1.73m2` and
 * `mL/min/1.73 m2` are both printed) leave it as read. A unit with words that say what it measures
 * (`% of total Hgb`, `% by wt`: the reader takes the unit before `of`, `by` or `in`) whose link word
 * the engine ran into a neighbour (`%of total Hgb`, `% oftotal Hgb`) has it parted off where exactly one
 * way of doing so makes a unit the reader knows and the reading is none.
 */

const unspaced = (text: string) => text.replace(/\s+/g, '');

const BY_UNSPACED = new Map<string, string[]>();
for (const unit of PRINTED_UNITS) BY_UNSPACED.set(unspaced(unit), [...(BY_UNSPACED.get(unspaced(unit)) ?? []), unit]);

/** A link word of a described unit run into the word before it (`%of`) or after it (`oftotal`). */
const LINK_AFTER = /^(\S+?)(of|by|in)$/;
const LINK_BEFORE = /^(of|by|in)(\p{L}\S*)$/u;

/** The described unit a reading spells with its link word parted off, where exactly one such reading is a unit the reader knows. */
function withLinkParted(unit: string): string | null {
  const words = unit.split(' ');
  const readings = new Set<string>();
  words.forEach((word, i) => {
    for (const parted of [word.replace(LINK_AFTER, '$1 $2'), word.replace(LINK_BEFORE, '$1 $2')]) {
      if (parted !== word) readings.add([...words.slice(0, i), parted, ...words.slice(i + 1)].join(' '));
    }
  });
  const units = [...readings].filter((reading) => isPrintedUnit(reading));
  return units.length === 1 ? units[0]! : null;
}

/** The unit table's spelling of a unit read with its spaces misjudged, or the unit as read. */
export function respacedUnit(unit: string): string {
  if (PRINTED_UNITS.has(unit)) return unit;
  const printed = BY_UNSPACED.get(unspaced(unit));
  if (printed?.length === 1) return printed[0]!;
  return isPrintedUnit(unit) ? unit : (withLinkParted(unit.trim().replace(/\s+/g, ' ')) ?? unit);
}

/** Whether a text is a unit the reader knows, as read or with its spaces as the unit table prints them (`% oftotal Hgb`). */
export function isUnitRespaced(text: string): boolean {
  return isPrintedUnit(text) || isPrintedUnit(respacedUnit(text));
}
