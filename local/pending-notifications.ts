import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StoredObjectNotice } from './embedded-s3';

/**
 * Object-created notifications that were raised but not yet handled, kept under
 * `<dataDir>/notifications`. S3 delivers its event notifications at least once, even if the
 * consumer's host dies; locally the embedded S3 writes the notification here before the uploader gets
 * its answer, and the runtime removes it once its trigger has run, so one a crash interrupted is
 * delivered again on the next start (the trigger, upload-received, is safe to repeat).
 */
export interface PendingNotification {
  id: string;
  notice: StoredObjectNotice;
}

export class PendingNotifications {
  private readonly directory: string;

  constructor(dataDir: string) {
    this.directory = path.join(dataDir, 'notifications');
    mkdirSync(this.directory, { recursive: true });
  }

  /** Synchronous: the notification is on disk before s3rver answers the PUT that raised it (s3-process.ts). */
  add(notice: StoredObjectNotice): PendingNotification {
    const pending = { id: randomUUID(), notice };
    const file = path.join(this.directory, `${pending.id}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(pending));
    renameSync(`${file}.tmp`, file);
    return pending;
  }

  done(id: string): void {
    rmSync(path.join(this.directory, `${id}.json`), { force: true });
  }

  /** What a previous run left undelivered (half-written files are dropped: their PUT was never answered). */
  load(): PendingNotification[] {
    const pending: PendingNotification[] = [];
    for (const name of readdirSync(this.directory)) {
      const file = path.join(this.directory, name);
      if (name.endsWith('.json')) pending.push(JSON.parse(readFileSync(file, 'utf8')) as PendingNotification);
      else rmSync(file, { force: true });
    }
    return pending;
  }
}
