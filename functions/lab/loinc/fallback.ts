import type { LoincFallback } from '../../platform/ports';
import type { LabPanel } from '../results-schema';

/**
 * The optional LLM step of LOINC mapping: results the table left `not_found` are offered to a
 * `LoincFallback` (Bedrock in AWS when configured; none locally, so locally nothing is ever
 * `llm_fuzzy`). A suggestion is kept only if it is a well-formed LOINC code with a valid check digit.
 */

/** LOINC codes end in a mod-10 check digit (the Luhn scheme applied to the digits before the dash). */
export function isValidLoincCode(code: string): boolean {
  const m = /^(\d{1,7})-(\d)$/.exec(code);
  if (!m) return false;
  const digits = [...m[1]!].map(Number).reverse();
  const sum = digits.reduce((total, digit, i) => {
    if (i % 2 === 1) return total + digit;
    const doubled = digit * 2;
    return total + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return (10 - (sum % 10)) % 10 === Number(m[2]);
}

export async function applyLoincFallback(panels: readonly LabPanel[], fallback: LoincFallback | null): Promise<LabPanel[]> {
  if (!fallback) return [...panels];
  return Promise.all(
    panels.map(async (panel) => ({
      ...panel,
      panelResults: await Promise.all(
        panel.panelResults.map(async (result) => {
          if (result.loincMatchType !== 'not_found') return result;
          const suggestion = await fallback.suggest({ biomarker: result.biomarker, unit: result.resultUnit, panelName: panel.panelName });
          if (!suggestion || !isValidLoincCode(suggestion.loincCode)) return result;
          return { ...result, loincCode: suggestion.loincCode, loincMatchType: 'llm_fuzzy' as const };
        }),
      ),
    })),
  );
}
