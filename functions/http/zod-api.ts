// The subset of zod that Hale's Lambda code uses; see functions/http/zod.ts for why it exists.
export {
  array,
  boolean,
  coerce,
  discriminatedUnion,
  enum,
  iso,
  literal,
  number,
  object,
  partialRecord,
  record,
  string,
  tuple,
  union,
  unknown,
  url,
  uuid,
  ZodError,
  ZodType,
} from 'zod';
export type { infer, input, output } from 'zod';
