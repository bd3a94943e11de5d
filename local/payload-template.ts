/**
 * JSONPath Payload Templates (ASL "Parameters", "ItemSelector", "BatchInput", ItemReader and
 * ResultWriter "Parameters") for the parts of a Distributed Map that the interpreter does not run
 * itself (see distributed-map.ts). A field whose name ends in `.$` takes the value at a Reference Path
 * of the input (`$…`) or of the Context Object (`$$…`); other fields are copied. Intrinsic functions
 * and non-reference paths (filters, wildcards, slices) are refused when the definition loads, so a
 * definition the local runner cannot evaluate exactly fails at start instead of running differently
 * from AWS.
 */

export class StatesError extends Error {
  /** `name` is the ASL error name (States.Runtime, …); `message` is the Cause. */
  constructor(error: string, cause: string) {
    super(cause);
    this.name = error;
  }
}

type Segment = string | number;

export interface ReferencePath {
  text: string;
  /** `$$…` paths read the Context Object. */
  context: boolean;
  segments: Segment[];
}

const NAME = /^\.([^.[\]]+)/;
const QUOTED = /^\['((?:[^'\\]|\\.)*)'\]/;
const INDEX = /^\[(\d+)\]/;

/** Parses `$`, `$.a.b`, `$['a'].b[0]`, `$$.Map.Item.Value`; throws for anything a Reference Path may not be. */
export function parseReferencePath(text: string): ReferencePath {
  const context = text.startsWith('$$');
  let rest = context ? text.slice(2) : text.startsWith('$') ? text.slice(1) : undefined!;
  if (rest === undefined) throw new Error(`'${text}' is not a path (it must start with $ or $$)`);
  const segments: Segment[] = [];
  while (rest.length > 0) {
    const name = NAME.exec(rest) ?? QUOTED.exec(rest);
    const index = name ? null : INDEX.exec(rest);
    const match = name ?? index;
    if (!match) throw new Error(`'${text}' is not a Reference Path the local runner supports (only names and [n] indexes)`);
    segments.push(name ? name[1]!.replace(/\\(.)/g, '$1') : Number(index![1]));
    rest = rest.slice(match[0].length);
  }
  return { text, context, segments };
}

/** The value at `path`; undefined when a step of it does not exist. */
export function readPath(path: ReferencePath, input: unknown, context: unknown): unknown {
  let value: unknown = path.context ? context : input;
  for (const segment of path.segments) {
    if (typeof segment === 'number') {
      if (!Array.isArray(value) || segment >= value.length) return undefined;
      value = value[segment];
    } else {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, segment)) return undefined;
      value = (value as Record<string, unknown>)[segment];
    }
  }
  return value;
}

/** Like readPath, but a missing value fails the state as AWS does (States.Runtime). */
export function requirePath(path: ReferencePath, input: unknown, context: unknown, field: string): unknown {
  const value = readPath(path, input, context);
  if (value === undefined) {
    throw new StatesError('States.Runtime', `The JSONPath '${path.text}' specified for the field '${field}' could not be found in the input`);
  }
  return value;
}

export type CompiledTemplate = (input: unknown, context: unknown) => unknown;

function compileValue(value: unknown, where: string): CompiledTemplate {
  if (Array.isArray(value)) {
    const items = value.map((item, i) => compileValue(item, `${where}[${i}]`));
    return (input, context) => items.map((item) => item(input, context));
  }
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value).map(([key, field]): [string, CompiledTemplate] => {
      if (!key.endsWith('.$')) return [key, compileValue(field, `${where}.${key}`)];
      if (typeof field !== 'string' || !field.startsWith('$')) {
        throw new Error(`${where}.${key}: intrinsic functions are not supported by the local Distributed Map runner`);
      }
      const path = parseReferencePath(field);
      return [key.slice(0, -2), (input, context) => requirePath(path, input, context, key)];
    });
    return (input, context) => Object.fromEntries(fields.map(([key, field]) => [key, field(input, context)]));
  }
  return () => value;
}

/** Compiles a Payload Template once; `where` names it in load errors. */
export function compileTemplate(template: unknown, where: string): CompiledTemplate {
  return compileValue(template, where);
}
