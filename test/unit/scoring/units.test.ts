import fc from 'fast-check';
import { SCORING_PREDICTORS } from '../../../functions/scoring/catalogue';
import { toCatalogueUnit } from '../../../functions/scoring/units';

const WITH_UNIT = SCORING_PREDICTORS.filter((predictor) => predictor.ucumUnit !== '');
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

describe('toCatalogueUnit on units no table knows', () => {
  // ucum-lhc reports the units it fails on with console.log.
  beforeAll(() => jest.spyOn(console, 'log').mockImplementation(() => undefined));
  afterAll(() => jest.restoreAllMocks());

  it("refuses units spelled like Object.prototype's members instead of throwing (ucum-lhc threw a TypeError, answered 500)", () => {
    for (const predictor of WITH_UNIT) {
      for (const unit of PROTOTYPE_NAMES) {
        expect({ predictor: predictor.key, unit, result: toCatalogueUnit(predictor, 1, unit) }).toEqual({ predictor: predictor.key, unit, result: { ok: false, reason: expect.any(String) } });
      }
    }
  });

  it('answers a result, never throws, for any printed unit', () => {
    fc.assert(
      fc.property(fc.constantFrom(...WITH_UNIT), fc.oneof(fc.string(), fc.constantFrom(...PROTOTYPE_NAMES).map((name) => `${name}/L`), fc.string({ unit: 'binary' })), (predictor, unit) => {
        const result = toCatalogueUnit(predictor, 1, unit);
        expect(typeof result.ok).toBe('boolean');
      }),
    );
  });
});
