import topPredictors from '../../data/population/top-predictors.json';
import { predictorByKey } from './catalogue';
import { domainByCode } from './domains';
import type { TopPredictorsFile } from './population-tables';
import type { TopDiseasePredictorsResponse } from './schemas';
import { SCORING_VERSION } from './version';

const FILE = topPredictors as TopPredictorsFile;

/** eGFR is computed from creatinine, so creatinine's code ranks with it. */
const SOURCE_CODES: Readonly<Record<string, string>> = { egfr: '2160-0' };

/**
 * GET /top-disease-predictors/ (spec §2.13): each domain's inputs ranked by a strength derived from
 * the model itself (data/population/top-predictors.json, method there and in data/population/README.md).
 */
export function computeTopDiseasePredictors(): TopDiseasePredictorsResponse {
  return {
    top_disease_predictors: FILE.domains.map((d) => ({
      disease: d.disease,
      disease_name: domainByCode(d.disease).name,
      predictors: d.predictors.map((p, i) => {
        const predictor = predictorByKey(p.key);
        const source = SOURCE_CODES[p.key];
        return {
          observation_codes: source ? [source, ...predictor.observationCodes] : predictor.observationCodes,
          rank: i + 1,
          strength: p.strength,
          predictor: p.key,
          name: predictor.name,
        };
      }),
    })),
    method: FILE.method,
    scoring_version: SCORING_VERSION,
  };
}
