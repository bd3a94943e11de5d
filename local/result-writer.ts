import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';

/**
 * The ResultWriter of a Distributed Map (Resource arn:aws:states:::s3:putObject, no WriterConfig), as
 * Step Functions exports a Map Run: under `<Prefix>/<map run id>/`, one JSON array of child execution
 * records per status (SUCCEEDED_0.json, FAILED_0.json, PENDING_0.json, each execution with its Input,
 * Output or Error and Cause, and metadata) and a manifest.json listing them. Records are spooled to
 * temporary files as children finish, so a run of any length holds none of them in memory. (AWS
 * starts a new file every 5 GB; locally each status has one file.)
 */

export type ChildStatus = 'SUCCEEDED' | 'FAILED' | 'PENDING';

export interface ChildRecord {
  executionArn: string;
  name: string;
  stateMachineArn: string;
  input: string;
  status: 'SUCCEEDED' | 'FAILED';
  output?: string;
  error?: string;
  cause?: string;
  startDate: Date;
  stopDate: Date;
}

export interface ResultStorage {
  /** Stores the text read from `file`; resolves with its size in bytes. */
  writeFile(bucket: string, key: string, file: string): Promise<number>;
  writeText(bucket: string, key: string, text: string): Promise<void>;
}

interface Spool {
  file: string;
  stream: WriteStream;
  count: number;
}

function entry(record: ChildRecord): Record<string, unknown> {
  const base = {
    ExecutionArn: record.executionArn,
    Input: record.input,
    InputDetails: { Included: true },
    Name: record.name,
    RedriveCount: 0,
    RedriveStatus: 'NOT_REDRIVABLE',
    RedriveStatusReason: record.status === 'SUCCEEDED' ? 'Execution is SUCCEEDED and cannot be redriven' : 'Execution is a child of a Map Run',
    StartDate: record.startDate.toISOString(),
    StateMachineArn: record.stateMachineArn,
    Status: record.status,
    StopDate: record.stopDate.toISOString(),
  };
  return record.status === 'SUCCEEDED'
    ? { ...base, Output: record.output, OutputDetails: { Included: true } }
    : { ...base, Error: record.error, Cause: record.cause };
}

export class MapRunResultWriter {
  /** One spool per status, created on its first record (children finish concurrently: the promise is shared). */
  private readonly spools = new Map<ChildStatus, Promise<Spool>>();
  private dir: Promise<string> | undefined;

  constructor(
    private readonly storage: ResultStorage,
    private readonly bucket: string,
    /** `<Prefix>/<map run id>/`, the folder of this run's files. */
    private readonly folder: string,
    private readonly mapRunArn: string,
  ) {}

  private spool(status: ChildStatus): Promise<Spool> {
    let spool = this.spools.get(status);
    if (!spool) {
      this.dir ??= mkdtemp(path.join(os.tmpdir(), 'hale-map-run-'));
      spool = this.dir.then((dir) => {
        const stream = createWriteStream(path.join(dir, `${status}-${randomUUID()}.json`), 'utf8');
        stream.write('[');
        return { file: stream.path as string, stream, count: 0 };
      });
      this.spools.set(status, spool);
    }
    return spool;
  }

  async add(record: ChildRecord): Promise<void> {
    const spool = await this.spool(record.status);
    const text = `${spool.count > 0 ? ',' : ''}${JSON.stringify(entry(record))}`;
    spool.count += 1;
    if (!spool.stream.write(text)) await once(spool.stream, 'drain');
  }

  /** Uploads the result files and the manifest; returns the manifest's key. Cleans up either way. */
  async finish(): Promise<string> {
    try {
      const files: Record<ChildStatus, { Key: string; Size: number }[]> = { FAILED: [], PENDING: [], SUCCEEDED: [] };
      for (const [status, pending] of this.spools) {
        const spool = await pending;
        spool.stream.end(']');
        await once(spool.stream, 'finish');
        const key = `${this.folder}${status}_0.json`;
        files[status].push({ Key: key, Size: await this.storage.writeFile(this.bucket, key, spool.file) });
      }
      const manifestKey = `${this.folder}manifest.json`;
      await this.storage.writeText(this.bucket, manifestKey, JSON.stringify({ DestinationBucket: this.bucket, MapRunArn: this.mapRunArn, ResultFiles: files }, null, 2));
      return manifestKey;
    } finally {
      for (const spool of await Promise.all(this.spools.values())) spool.stream.destroy();
      if (this.dir) await rm(await this.dir, { recursive: true, force: true });
    }
  }
}
