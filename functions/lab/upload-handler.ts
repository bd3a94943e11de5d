import { HaleError } from '../http/errors';
import { httpRoute } from '../http/handler';

// Placeholder until this route's area lands; answers 501 in the route's dialect.
export const handler = httpRoute({ dialect: 'extraction' }, async () => {
  throw new HaleError(501, 'not_implemented', 'This endpoint is not implemented yet');
});
