/**
 * The CLI's progress line on stderr: a bar redrawn in place on a terminal, a line every few seconds
 * when stderr is a file or a pipe (CI logs), so the output stays readable either way.
 */
export interface ProgressOutput {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const BAR_WIDTH = 28;
const LOG_INTERVAL_MS = 5000;

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const count = (n: number) => n.toLocaleString('en-US');

/** `[#######-------]  45% 45,000/100,000 items · 3 invalid · 12,345/s · 4 s left` */
export function progressLine(label: string, done: number, total: number | null, details: { failed?: number; ratePerSecond?: number | null; etaSeconds?: number | null } = {}): string {
  const share = total && total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(share * BAR_WIDTH);
  const parts = [`${label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${total ? `${Math.floor(share * 100)}%`.padStart(4) : '  …'}`];
  parts.push(total === null ? `${count(done)}` : `${count(done)}/${count(total)}`);
  const more: string[] = [];
  if (details.failed) more.push(`${count(details.failed)} invalid`);
  if (details.ratePerSecond) more.push(`${count(Math.round(details.ratePerSecond))}/s`);
  if (details.etaSeconds !== null && details.etaSeconds !== undefined && share < 1) more.push(`${duration(details.etaSeconds)} left`);
  return [parts.join(' '), ...more].join(' · ');
}

export class Progress {
  private lastLog = 0;
  private lastLine = '';

  constructor(
    private readonly out: ProgressOutput,
    private readonly now: () => number = Date.now,
  ) {}

  show(line: string): void {
    if (line === this.lastLine) return;
    this.lastLine = line;
    if (this.out.isTTY) {
      this.out.write(`\r${line.slice(0, Math.max(20, (this.out.columns ?? 100) - 1)).padEnd(Math.min(line.length + 8, (this.out.columns ?? 100) - 1))}`);
      return;
    }
    if (this.now() - this.lastLog >= LOG_INTERVAL_MS) {
      this.lastLog = this.now();
      this.out.write(`${line}\n`);
    }
  }

  /** Ends the current bar with its final state on a line of its own. */
  done(line: string): void {
    this.out.write(this.out.isTTY ? `\r${line}\n` : `${line}\n`);
    this.lastLine = '';
    this.lastLog = 0;
  }
}
