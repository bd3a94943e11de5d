import model from '../../../data/models/fib4.json';

/** FIB-4 (Sterling 2006): age × AST / (platelets × √ALT); an index, not a probability. */
export function fib4(age: number, astUl: number, altUl: number, plateletsThousandPerUl: number): number {
  return (age * astUl) / (plateletsThousandPerUl * Math.sqrt(altUl));
}

/** NAFLD pathway category; the low cut-off rises to 2.0 from age 65 (McPherson 2017). */
export function fib4Category(value: number, age: number): 'low' | 'indeterminate' | 'high' {
  const k = model.categories;
  const low = age >= 65 ? k.low_below_age_65_plus : k.low_below;
  if (value < low) return 'low';
  if (value > k.high_above) return 'high';
  return 'indeterminate';
}
