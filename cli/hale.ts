import { parseArgs } from 'node:util';
import { bulkScore, CliError } from './bulk-score';

/**
 * The Hale command line (`npx hale …`, bin/hale.cjs). One command so far:
 *
 *   hale bulk score <input.csv|input.jsonl> --out <results> [--format jsonl|csv] [--errors <file>]
 *        [--input-format csv|jsonl] [--api-url <url>] [--api-key <key>] [--webhook-url <url>]
 *
 * The API URL and key come from the flags, else HALE_API_URL and HALE_API_KEY.
 */

export const USAGE = `Usage: hale bulk score <input.csv|input.jsonl> --out <results file> [options]

Scores a population with a Hale bulk job: uploads the file, shows the job's progress, downloads the results.

Options:
  --out <file>             where the results go (required)
  --format jsonl|csv       results as JSON Lines (default: one timeseries response per line) or CSV (one row per person-date)
  --errors <file>          where per-line errors go when there are any (default: <out>.errors.jsonl)
  --input-format csv|jsonl the input's format when its extension does not say (.csv, .jsonl, .ndjson)
  --api-url <url>          Hale's base URL (default: $HALE_API_URL)
  --api-key <key>          your API key (default: $HALE_API_KEY)
  --webhook-url <url>      also have the outcome POSTed there
  --poll-interval <ms>     how often to ask for progress (default: 1000)
  -h, --help               this text
`;

export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new CliError(`${flag} must be ${allowed.join(' or ')}, not '${value}'`);
  return value as T;
}

/** Runs the command line; resolves with the exit code (0 done, 1 failed, 2 usage). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        format: { type: 'string' },
        errors: { type: 'string' },
        'input-format': { type: 'string' },
        'api-url': { type: 'string' },
        'api-key': { type: 'string' },
        'webhook-url': { type: 'string' },
        'poll-interval': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const [area, command, input, ...extra] = positionals;
  if (area !== 'bulk' || command !== 'score' || !input || extra.length > 0) {
    io.stderr.write(USAGE);
    return 2;
  }
  try {
    const out = values.out as string | undefined;
    if (!out) throw new CliError('--out <file> is required');
    const apiUrl = (values['api-url'] as string | undefined) ?? io.env.HALE_API_URL;
    const apiKey = (values['api-key'] as string | undefined) ?? io.env.HALE_API_KEY;
    if (!apiUrl) throw new CliError('Give Hale\'s URL with --api-url or HALE_API_URL (e.g. http://localhost:3000 for npm start)');
    if (!apiKey) throw new CliError('Give your API key with --api-key or HALE_API_KEY');
    const pollIntervalMs = Number(values['poll-interval'] ?? 1000);
    if (!Number.isFinite(pollIntervalMs) || pollIntervalMs < 10) throw new CliError('--poll-interval must be a number of milliseconds, at least 10');
    const { status, wrote } = await bulkScore({
      input,
      out,
      errorsOut: values.errors as string | undefined,
      format: oneOf(values.format as string | undefined, ['jsonl', 'csv'] as const, '--format') ?? 'jsonl',
      inputFormat: oneOf(values['input-format'] as string | undefined, ['jsonl', 'csv'] as const, '--input-format'),
      apiUrl,
      apiKey,
      webhookUrl: values['webhook-url'] as string | undefined,
      pollIntervalMs,
      stderr: io.stderr,
    });
    const summary = status.summary;
    io.stdout.write(
      `${summary?.by_status.scored ?? 0} scored, ${summary?.by_status.invalid ?? 0} invalid (${summary?.person_dates_scored ?? 0} person-dates); wrote ${wrote.join(', ')}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr.write(`hale: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
