import path from 'node:path';

/** Repository root: ROUTES and WORKERS name their handler modules relative to it. */
export const REPO_ROOT = path.resolve(__dirname, '..');

export function repoPath(relative: string): string {
  return path.join(REPO_ROOT, relative);
}
