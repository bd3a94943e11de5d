import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { type Token, type Tokens, lexer } from 'marked';

/**
 * Every relative link and anchor in every tracked Markdown file resolves, as GitHub renders them:
 * the target is a tracked file or folder inside the repository, and `#anchor` names a heading of the
 * target (GitHub's slugs, repeats numbered) or an explicit `id`/`name`. Links in code are not links.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');

const tracked: string[] = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
const trackedSet = new Set(tracked);
const trackedFolders = new Set(tracked.flatMap((file) => file.split('/').slice(0, -1).map((_part, i, parts) => parts.slice(0, i + 1).join('/'))));
const markdownFiles = tracked.filter((file) => file.endsWith('.md') && existsSync(path.join(ROOT, file)));

interface Link {
  href: string;
  text: string;
}

/** The text GitHub slugs: the heading's inline content with its markup removed. */
function plainText(tokens: readonly Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) => {
      if (token.type === 'codespan' || token.type === 'text' || token.type === 'escape') {
        const inner = (token as Tokens.Text).tokens;
        return inner ? plainText(inner) : (token as Tokens.Codespan).text;
      }
      if (token.type === 'html') return '';
      return 'tokens' in token ? plainText(token.tokens as Token[]) : '';
    })
    .join('');
}

/** Children of a block or inline token, wherever marked keeps them (lists, tables, links…). */
function children(token: Token): Token[] {
  const kids: Token[] = [];
  if ('tokens' in token && Array.isArray(token.tokens)) kids.push(...(token.tokens as Token[]));
  if (token.type === 'list') for (const item of (token as Tokens.List).items) kids.push(item);
  if (token.type === 'table') {
    const table = token as Tokens.Table;
    for (const cell of [...table.header, ...table.rows.flat()]) kids.push(...cell.tokens);
  }
  return kids;
}

function walk(tokens: readonly Token[], visit: (token: Token) => void): void {
  for (const token of tokens) {
    if (token.type === 'code' || token.type === 'codespan') continue;
    visit(token);
    walk(children(token), visit);
  }
}

const parsed = new Map<string, { links: Link[]; anchors: Set<string> }>();

/** Links and anchors of a tracked Markdown file. */
function markdown(file: string): { links: Link[]; anchors: Set<string> } {
  const known = parsed.get(file);
  if (known) return known;
  const source = readFileSync(path.join(ROOT, file), 'utf8');
  const tokens = lexer(source);
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const links: Link[] = [];
  walk(tokens, (token) => {
    if (token.type === 'heading') anchors.add(slugger.slug(plainText((token as Tokens.Heading).tokens)));
    if (token.type === 'link' || token.type === 'image') links.push({ href: (token as Tokens.Link).href, text: (token as Tokens.Link).text });
    if (token.type === 'html') {
      for (const match of (token as Tokens.HTML).text.matchAll(/\s(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
      for (const match of (token as Tokens.HTML).text.matchAll(/\shref="([^"]+)"/g)) links.push({ href: match[1]!, text: '(html)' });
    }
  });
  const result = { links, anchors };
  parsed.set(file, result);
  return result;
}

/** Why a link of `file` does not resolve; undefined when it does or is not relative. */
function brokenLink(file: string, href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return undefined;
  const [rawTarget = '', anchor] = href.split('#', 2) as [string, string | undefined];
  const target = decodeURIComponent(rawTarget);
  const resolved = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target)).replace(/\/$/, '');
  if (resolved.startsWith('..') || path.posix.isAbsolute(target)) return 'points outside the repository';
  const isFile = trackedSet.has(resolved);
  if (!isFile && !trackedFolders.has(resolved) && resolved !== '.') return `${resolved} is not a tracked file or folder`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!isFile || !resolved.endsWith('.md')) return `#${anchor} on ${resolved}, which is not Markdown`;
  return markdown(resolved).anchors.has(decodeURIComponent(anchor)) ? undefined : `${resolved} has no heading #${anchor}`;
}

describe('Markdown links', () => {
  it('finds the tracked Markdown files', () => {
    expect(markdownFiles).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/api-reference.md', 'docs/CONVENTIONS.md']));
  });

  it('resolve: every relative link of every tracked Markdown file, with its anchor', () => {
    const broken = markdownFiles.flatMap((file) =>
      markdown(file).links.flatMap(({ href, text }) => {
        const reason = brokenLink(file, href);
        return reason ? [`${file}: [${text}](${href}) — ${reason}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('are checked for real: a missing file, a missing heading and a path out of the repository are caught', () => {
    expect(brokenLink('README.md', 'docs/architecture.md#how-hale-is-built')).toBeUndefined();
    expect(brokenLink('docs/architecture.md', '../README.md#the-two-commands')).toBeUndefined();
    expect(brokenLink('docs/architecture.md', '#a-lab-job-step-by-step')).toBeUndefined();
    expect(brokenLink('README.md', 'docs/no-such-file.md')).toMatch(/not a tracked file/);
    expect(brokenLink('README.md', 'docs/architecture.md#no-such-heading')).toMatch(/no heading/);
    expect(brokenLink('README.md', '#no-such-heading')).toMatch(/no heading/);
    expect(brokenLink('docs/CONVENTIONS.md', '../../elsewhere/notes.md')).toMatch(/outside the repository/);
    expect(brokenLink('README.md', 'https://example.org/#anything')).toBeUndefined();
  });

  it('slug headings as GitHub does: markup dropped, punctuation removed, repeats numbered', () => {
    const slugger = new GithubSlugger();
    const slug = (heading: string) => slugger.slug(plainText((lexer(heading)[0] as Tokens.Heading).tokens));
    expect(slug('## `POST /health-score/timeseries`')).toBe('post-health-scoretimeseries');
    expect(slug('### Score a timeseries (`POST /health-score/timeseries`)')).toBe('score-a-timeseries-post-health-scoretimeseries');
    expect(slug('## `POST /health-score/timeseries`')).toBe('post-health-scoretimeseries-1');
  });
});
