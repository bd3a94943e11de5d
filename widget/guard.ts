/**
 * A few type guards that read like a schema. The widget cannot ship zod (~450 KB, see widget/README.md)
 * yet must refuse malformed input with a message that says where it is malformed; the compile-time
 * contract test (test/unit/widget/input-contract.test.ts) keeps these shapes in step with the API's
 * zod schemas.
 */
export type Check<T> = (value: unknown, path: string, problems: string[]) => value is T;
export type Infer<C> = C extends Check<infer T> ? T : never;

function fail(problems: string[], path: string, message: string): false {
  problems.push(`${path || 'scoring'}: ${message}`);
  return false;
}

export const str: Check<string> = (v, path, problems): v is string => typeof v === 'string' || fail(problems, path, 'expected text');

export const num: Check<number> = (v, path, problems): v is number =>
  (typeof v === 'number' && Number.isFinite(v)) || fail(problems, path, 'expected a finite number');

export function matching(pattern: RegExp, description: string): Check<string> {
  return (v, path, problems): v is string => str(v, path, problems) && (pattern.test(v) || fail(problems, path, `expected ${description}`));
}

export function nullable<T>(check: Check<T>): Check<T | null> {
  return (v, path, problems): v is T | null => v === null || check(v, path, problems);
}

export function optional<T>(check: Check<T>): Check<T | undefined> {
  return (v, path, problems): v is T | undefined => v === undefined || check(v, path, problems);
}

export function oneOf<const T extends readonly (string | number)[]>(...allowed: T): Check<T[number]> {
  return (v, path, problems): v is T[number] =>
    allowed.includes(v as T[number]) || fail(problems, path, `expected one of ${allowed.join(', ')}`);
}

export function union<A, B>(a: Check<A>, b: Check<B>): Check<A | B> {
  return (v, path, problems): v is A | B => {
    const ignored: string[] = [];
    return a(v, path, ignored) || b(v, path, ignored) || fail(problems, path, 'has an unexpected type');
  };
}

export function arr<T>(item: Check<T>, options: { min?: number } = {}): Check<T[]> {
  return (v, path, problems): v is T[] => {
    if (!Array.isArray(v)) return fail(problems, path, 'expected a list');
    if (v.length < (options.min ?? 0)) return fail(problems, path, `expected at least ${options.min} entries`);
    let ok = true;
    v.forEach((element, index) => {
      ok = item(element, `${path}[${index}]`, problems) && ok;
    });
    return ok;
  };
}

type Shape = Record<string, Check<unknown>>;
type ObjectOf<S extends Shape> = { [K in keyof S]: Infer<S[K]> };

/** An object with at least these fields; others are allowed (the API adds fields additively). */
export function obj<S extends Shape>(shape: S): Check<ObjectOf<S>> {
  return (v, path, problems): v is ObjectOf<S> => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(problems, path, 'expected an object');
    let ok = true;
    for (const [key, check] of Object.entries(shape)) {
      ok = check((v as Record<string, unknown>)[key], path ? `${path}.${key}` : key, problems) && ok;
    }
    return ok;
  };
}
