import type { ErrorDialect } from '../functions/http/dialects';
import type { RouteDefinition } from '../functions/routes';

export type RouteLookup<R extends RouteDefinition> = { kind: 'found'; route: R; pathParameters: Record<string, string> | null } | { kind: 'not-found' };

interface CompiledRoute<R extends RouteDefinition> {
  route: R;
  segments: string[];
  /** Static segments win over `{param}` ones, as in API Gateway. */
  parameterCount: number;
}

/** API Gateway treats `/reference-data` and `/reference-data/` as the same resource. */
function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment, index, all) => index > 0 && !(segment === '' && index === all.length - 1));
}

function isParameter(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}');
}

/** The extraction API has its own error dialect, also for paths that match no route. */
export function dialectOfPath(path: string): ErrorDialect {
  return path === '/extraction' || path.startsWith('/extraction/') ? 'extraction' : 'detail';
}

export function dialectOfRoute(route: RouteDefinition): ErrorDialect {
  return route.api === 'extraction' ? 'extraction' : 'detail';
}

/** Matches request paths against the path templates of ROUTES. */
export class RouteTable<R extends RouteDefinition> {
  private readonly compiled: CompiledRoute<R>[];

  constructor(routes: readonly R[]) {
    this.compiled = routes
      .map((route) => {
        const segments = segmentsOf(route.path);
        return { route, segments, parameterCount: segments.filter(isParameter).length };
      })
      .sort((a, b) => a.parameterCount - b.parameterCount);
  }

  /**
   * `rawPath` is the percent-encoded path of the request URL; parameters come back decoded. Like API
   * Gateway, the most specific resource that matches the path decides: without the method there is
   * no route (API Gateway has no 405), even if a less specific resource has it.
   */
  lookup(method: string, rawPath: string): RouteLookup<R> {
    const requested = segmentsOf(rawPath);
    let resource: string | undefined;
    for (const candidate of this.compiled) {
      const parameters = this.match(candidate, requested);
      if (!parameters) continue;
      resource ??= candidate.segments.join('/');
      if (candidate.segments.join('/') !== resource) break;
      if (candidate.route.method === method) {
        return { kind: 'found', route: candidate.route, pathParameters: Object.keys(parameters).length > 0 ? parameters : null };
      }
    }
    return { kind: 'not-found' };
  }

  private match(candidate: CompiledRoute<R>, requested: string[]): Record<string, string> | undefined {
    if (candidate.segments.length !== requested.length) return undefined;
    const parameters: Record<string, string> = {};
    for (const [index, template] of candidate.segments.entries()) {
      const actual = requested[index]!;
      if (isParameter(template)) {
        if (actual === '') return undefined;
        try {
          parameters[template.slice(1, -1)] = decodeURIComponent(actual);
        } catch {
          return undefined;
        }
      } else if (template !== actual) {
        return undefined;
      }
    }
    return parameters;
  }
}
