import fc from 'fast-check';

/**
 * What a hostile or careless client sends instead of a value: strings that break parsers, paths,
 * templates and logs; numbers at and past the edges of IEEE doubles; every wrong JSON type; and
 * mutations that put those into an otherwise well-formed body.
 */

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'null',
    'undefined',
    'NaN',
    'Infinity',
    '-Infinity',
    '1e999',
    '-1e999',
    '0x1F',
    '1_000',
    '١٢٣', // Arabic-Indic digits
    '１２３', // full-width digits
    '12,5',
    '--1',
    '+-0',
    '.',
    '1.2.3',
    '9'.repeat(400),
    "'; DROP TABLE jobs; --",
    '{{constructor.constructor("return process")()}}',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template placeholder is the hostile value here
    '${process.env}',
    '<script>alert(1)</script>',
    '../../../../etc/passwd',
    '..\\..\\windows\\win.ini',
    '%00%2e%2e%2f',
    '__proto__',
    'constructor',
    'hasOwnProperty',
    '\u202e\u0645\u0631\u062d\u0628\u0627', // right-to-left override + Arabic
    'a\u0301\u0301\u0301\u0301\u0301\u0301', // stacked combining marks
    '\u200b\u200c\u200d\ufeff', // zero-width characters
    '\ud800', // lone surrogate
    '\udfff\ud800',
    '👩‍👩‍👧‍👦🏳️‍🌈',
    '\r\nX-Injected: 1',
    'line\nbreak\ttab\u0007bell',
    'x'.repeat(70_000),
  ),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, 5e-324, Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER - 2, 2 ** 31, -(2 ** 31) - 1, 0.1 + 0.2),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Any JSON value of the wrong kind, including the ones JSON.stringify turns into null (NaN, ±Infinity). */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.constantFrom(null, true, false, [], {}, [null], { '': null }, Number.NaN, Number.POSITIVE_INFINITY),
  fc.jsonValue({ maxDepth: 3 }),
);

type Path = (string | number)[];

/** Every path into a JSON value (objects and arrays), the root included. */
function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) pathsOf(item, [...prefix, index], out);
  } else if (value !== null && typeof value === 'object') for (const [key, inner] of Object.entries(value)) pathsOf(inner, [...prefix, key], out);
  return out;
}

function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function setAt(root: unknown, path: Path, replace: (old: unknown, parent: Record<string | number, unknown>, key: string | number) => void): unknown {
  if (path.length === 0) {
    const holder: Record<string, unknown> = { root };
    replace(root, holder, 'root');
    return holder.root;
  }
  let parent = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  replace(parent[key], parent, key);
  return root;
}

export type Mutation = 'replace' | 'delete' | 'extra-key' | 'duplicate-item' | 'stringify' | 'wrap';

/**
 * One mutation of a valid-ish value at a random place: a value replaced by a hostile or wrongly
 * typed one, a key deleted, an unknown (or prototype-polluting) key added, an array item repeated,
 * a number sent as a string (or the reverse), a value wrapped in an array.
 */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return valid.chain((value) => {
    const paths = pathsOf(value);
    return fc
      .tuple(
        fc.constantFrom(...paths),
        fc.constantFrom<Mutation>('replace', 'replace', 'replace', 'delete', 'extra-key', 'duplicate-item', 'stringify', 'wrap'),
        wrongValue,
        fc.constantFrom('__proto__', 'constructor', 'prototype', 'unexpected', '', '💥'),
      )
      .map(([path, mutation, replacement, extraKey]) =>
        setAt(cloneJson(value), path, (old, parent, key) => {
          switch (mutation) {
            case 'replace':
              parent[key] = replacement;
              break;
            case 'delete':
              if (Array.isArray(parent)) parent.splice(Number(key), 1);
              else delete parent[key];
              break;
            case 'extra-key':
              // JSON.parse makes `__proto__` an own key, as a client's serialiser would send it.
              if (old !== null && typeof old === 'object' && !Array.isArray(old)) Object.defineProperty(old, extraKey, { value: replacement, enumerable: true });
              else parent[key] = replacement;
              break;
            case 'duplicate-item':
              if (Array.isArray(old) && old.length > 0) old.push(cloneJson(old[0]));
              else parent[key] = [old, old];
              break;
            case 'stringify':
              parent[key] = typeof old === 'string' && old.trim() !== '' && Number.isFinite(Number(old)) ? Number(old) : JSON.stringify(old ?? null);
              break;
            case 'wrap':
              parent[key] = [old];
              break;
          }
        }),
      );
  });
}
