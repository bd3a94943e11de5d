import { createHash } from 'node:crypto';

/**
 * Stable concept id: the first 48 bits of SHA-256 over `<vocabulary_id>|<concept_code>`, as an integer
 * (always below 2^48, so exact in JSON and JavaScript). The same code of the same vocabulary gets the
 * same id in every release, on every machine, without a registry; the build fails on a collision.
 */
export function conceptId(vocabularyId: string, conceptCode: string): number {
  return Number.parseInt(createHash('sha256').update(`${vocabularyId}|${conceptCode}`).digest('hex').slice(0, 12), 16);
}
