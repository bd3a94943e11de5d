import { readTables } from '../../../../functions/lab/parsers/table';
import { syntheticPage } from './synthetic-page';

/**
 * A header's columns are set from the rows of its own section, up to the next header (table.ts,
 * `calibrate`): a later table printed at other positions says nothing of where this one's columns start.
 */
describe('columns of a column header', () => {
  it('are set from the rows of its own section, not from a later table printed at other positions', () => {
    const page = syntheticPage(1, [
      [700, [[36, 'Test Name'], [250, 'Result'], [330, 'Reference Range']]],
      [688, [[36, 'LIPID PANEL']]],
      [676, [[48, 'CHOLESTEROL'], [250, '185'], [330, '<200 mg/dL']]],
      // The last word of a name ends 4 points left of the values.
      [664, [[48, 'TRIGLYCERIDES'], [234, '(S)'], [250, '150'], [330, '<150 mg/dL']]],
      [652, [[48, 'HDL'], [250, '52'], [330, '>40 mg/dL']]],
      // A second table whose ranges start within reach of the first table's Result header (240, 242).
      [620, [[36, 'Test Name'], [160, 'Result'], [240, 'Reference Range']]],
      [608, [[36, 'ELECTROLYTES']]],
      [596, [[48, 'SODIUM'], [160, '140'], [240, '136-145 mmol/L']]],
      [584, [[48, 'POTASSIUM'], [160, '4.1'], [242, '3.5-5.1 mmol/L']]],
    ]);
    const read = readTables([page]).panels.map((p) => [p.name, p.results.map((r) => `${r.biomarker}=${r.value.resultValue}`)]);
    expect(read).toEqual([
      ['LIPID PANEL', ['CHOLESTEROL=185', 'TRIGLYCERIDES (S)=150', 'HDL=52']],
      ['ELECTROLYTES', ['SODIUM=140', 'POTASSIUM=4.1']],
    ]);
  });
});
