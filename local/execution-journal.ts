import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StateMachine } from 'aws-local-stepfunctions';

/**
 * Where the local Step Functions service keeps its executions, so that they outlive the process as
 * they outlive any one machine in AWS: one JSON file per execution under `<dataDir>/executions`,
 * rewritten (write, then rename) at each top-level state the execution enters, with that state's
 * input. After a crash, every execution still RUNNING on disk is redriven from the state it was in
 * (recovery.ts), as Step Functions' RedriveExecution restarts a stopped execution from the state
 * that did not finish, with that state's input and the execution's original input and start time.
 *
 * State inputs are what the ASL passes between states: job ids, S3 keys and small outcomes, never
 * document bytes or text (docs/CONVENTIONS.md). An ended execution keeps only its outcome, and is
 * forgotten after RETENTION_DAYS, like AWS's execution history.
 */

export type JournalStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED';

export interface JournalEntry {
  stateMachine: string;
  executionArn: string;
  name: string;
  status: JournalStatus;
  /** The execution's input exactly as StartExecution received it. */
  input: string;
  /** Epoch ms. */
  startDate: number;
  stopDate?: number;
  /** How often the execution was redriven (Step Functions' Execution.RedriveCount). */
  redriveCount: number;
  /** While RUNNING: the last top-level state entered and its input, where a redrive starts. */
  current?: { state: string; input: unknown };
  output?: string;
  error?: string;
  cause?: string;
}

/** One event of an execution's log (the interpreter does not export the type by name). */
type EventLog = ReturnType<StateMachine['run']>['eventLogs'] extends AsyncGenerator<infer Event> ? Event : never;

/** Step Functions keeps closed executions for 90 days; their names cannot be reused meanwhile. */
const RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;

export class ExecutionJournal {
  private readonly directory: string;

  constructor(dataDir: string) {
    this.directory = path.join(dataDir, 'executions');
    mkdirSync(this.directory, { recursive: true });
  }

  /** Synchronous, so an entry is on disk before the work it describes goes on. */
  write(entry: JournalEntry): void {
    const file = this.fileOf(entry.stateMachine, entry.name);
    const temporary = `${file}.tmp`;
    writeFileSync(temporary, JSON.stringify(entry));
    renameSync(temporary, file);
  }

  /** Every execution on disk; closed ones past retention are deleted instead. */
  load(now = Date.now()): JournalEntry[] {
    const entries: JournalEntry[] = [];
    for (const name of readdirSync(this.directory)) {
      const file = path.join(this.directory, name);
      if (!name.endsWith('.json')) {
        // A write the crash interrupted before its rename: the previous entry is still whole.
        rmSync(file, { force: true });
        continue;
      }
      const entry = JSON.parse(readFileSync(file, 'utf8')) as JournalEntry;
      if (entry.status !== 'RUNNING' && (entry.stopDate ?? 0) < now - RETENTION_DAYS * DAY_MS) rmSync(file, { force: true });
      else entries.push(entry);
    }
    return entries;
  }

  private fileOf(stateMachine: string, executionName: string): string {
    // Both match [A-Za-z0-9_-]+ (the names Step Functions accepts), so they make a safe file name.
    return path.join(this.directory, `${stateMachine}.${executionName}.json`);
  }
}

/**
 * Follows an execution's event log and answers, for each event, the top-level state it enters (with
 * that state's input), if any. States inside a Map iteration carry an index; those inside a Parallel
 * branch sit between its ParallelBranchStarted and ParallelBranchSucceeded/Failed events.
 */
export function topLevelStateTracker(topLevelStates: ReadonlySet<string>): (event: EventLog) => JournalEntry['current'] | undefined {
  let openBranches = 0;
  return (event) => {
    if (event.type === 'ParallelBranchStarted') openBranches++;
    if (event.type === 'ParallelBranchSucceeded' || event.type === 'ParallelBranchFailed') openBranches--;
    if (event.type !== 'StateEntered' || openBranches > 0 || event.index !== undefined || !topLevelStates.has(event.state.name)) return undefined;
    return { state: event.state.name, input: event.state.input };
  };
}
