import model from '../../../data/models/aric-diabetes.json';

/** ARIC diabetes model (Schmidt 2005): 9-year incident diabetes, logistic, US units. */

export interface AricInputs {
  age: number;
  parentalDiabetes: number;
  fastingGlucoseMgdl: number;
  sbpMmHg: number;
  waistCm: number;
  heightCm: number;
  hdlMgdl: number;
  triglyceridesMgdl: number;
}

const c = model.coefficients;

export function aricLogOdds(x: AricInputs): number {
  return (
    c.intercept +
    c.age * x.age +
    c.black * model.race_policy.black +
    c.parental_diabetes * x.parentalDiabetes +
    c.fasting_glucose * x.fastingGlucoseMgdl +
    c.sbp * x.sbpMmHg +
    c.waist * x.waistCm +
    c.height * x.heightCm +
    c.hdl * x.hdlMgdl +
    c.triglycerides * x.triglyceridesMgdl
  );
}

/** 9-year risk (0–1). */
export function aricRisk(x: AricInputs): number {
  return 1 / (1 + Math.exp(-aricLogOdds(x)));
}
