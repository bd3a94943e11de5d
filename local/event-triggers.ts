import { randomUUID } from 'node:crypto';
import type { S3Event, ScheduledEvent } from 'aws-lambda';
import type { StoredObjectNotice } from './embedded-s3';
import { type LambdaFunction, type LambdaInvoker, LOCAL_ACCOUNT, LOCAL_REGION, type SizedFunction } from './lambda-invoker';
import type { PendingNotifications } from './pending-notifications';
import type { RuntimeLog } from './runtime-log';

export interface TriggeredFunction extends LambdaFunction {
  trigger?: 'uploads-object-created' | 'schedule-5-minutes';
  /** As the S3 notification's prefix filter: only keys starting with it reach the function. */
  triggerPrefix?: string;
}

const FIVE_MINUTES_MS = 5 * 60 * 1000;

/** Lambda retries a failed asynchronous invocation twice, about one and then two minutes later. */
const ASYNC_RETRY_DELAYS_MS = [60_000, 120_000];

/**
 * S3 notifications carry the key form-URL-encoded (application/x-www-form-urlencoded: space → '+',
 * only letters, digits and `*-._` kept), while '/' stays as it is.
 */
export function encodeNotificationKey(key: string): string {
  return key
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment)
        .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
        .replace(/%20/g, '+'),
    )
    .join('/');
}

export function objectCreatedEvent(notice: StoredObjectNotice, now = new Date()): S3Event {
  return {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: LOCAL_REGION,
        eventTime: now.toISOString(),
        eventName: notice.eventName,
        userIdentity: { principalId: 'AWS:LOCAL' },
        requestParameters: { sourceIPAddress: notice.sourceIp },
        responseElements: { 'x-amz-request-id': randomUUID(), 'x-amz-id-2': randomUUID() },
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: 'hale-uploads-object-created',
          bucket: { name: notice.bucket, ownerIdentity: { principalId: 'LOCAL' }, arn: `arn:aws:s3:::${notice.bucket}` },
          object: { key: encodeNotificationKey(notice.key), size: notice.size, eTag: notice.eTag ?? '', sequencer: notice.sequencer },
        },
      },
    ],
  };
}

function scheduledEvent(fn: TriggeredFunction, now = new Date()): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: LOCAL_ACCOUNT,
    time: now.toISOString(),
    region: LOCAL_REGION,
    resources: [`arn:aws:events:${LOCAL_REGION}:${LOCAL_ACCOUNT}:rule/hale-${fn.id}-schedule`],
    detail: {},
  };
}

/**
 * The event sources that are not HTTP or Step Functions: object-created notifications of the
 * uploads bucket and the five-minute schedule (scaled by timeScale). Both invoke asynchronously,
 * as AWS does: a failure is logged by name and does not reach whoever caused the event, and a
 * failed notification is retried twice (× timeScale). With `notifications`, an object-created
 * notification is kept on disk until its triggers ran, and redelivered after a crash.
 */
export class EventTriggers {
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private timeScale = 1;
  private stopped = false;

  constructor(
    private readonly invoker: LambdaInvoker,
    private readonly functions: readonly SizedFunction<TriggeredFunction>[],
    private readonly uploadsBucket: string,
    private readonly log: RuntimeLog,
    private readonly notifications?: PendingNotifications,
  ) {}

  /**
   * A notice of the embedded S3, which journals those of the uploads bucket before it answers the PUT
   * (`pendingId`: the journal entry, removed here once every trigger has run).
   */
  objectCreated(notice: StoredObjectNotice, pendingId?: string): void {
    if (notice.bucket !== this.uploadsBucket) return;
    this.deliver(notice, pendingId);
  }

  /** Delivers the notifications a previous run left undelivered; answers how many. */
  redeliverPending(): number {
    const pending = this.notifications?.load() ?? [];
    for (const { id, notice } of pending) this.deliver(notice, id);
    if (pending.length > 0) this.log.info('undelivered object-created notifications redelivered', { notifications: pending.length });
    return pending.length;
  }

  private deliver(notice: StoredObjectNotice, pendingId: string | undefined): void {
    const runs = this.functions
      .filter((f) => f.trigger === 'uploads-object-created' && notice.key.startsWith(f.triggerPrefix ?? ''))
      .map((fn) => this.track(this.invokeWithRetries(fn, objectCreatedEvent(notice))));
    // Kept for the next start when the runtime stops before every trigger had its last attempt.
    if (pendingId !== undefined) Promise.all(runs).then((settled) => settled.every(Boolean) && this.notifications?.done(pendingId));
  }

  /** Answers whether the invocation ran to its end (succeeded or used up its retries), false when stopped before. */
  private async invokeWithRetries(fn: SizedFunction<TriggeredFunction>, event: unknown): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.invoker.invoke(fn, event);
        return true;
      } catch (error) {
        const delay = ASYNC_RETRY_DELAYS_MS[attempt];
        this.log.error('triggered function failed', { function: fn.id, attempt: attempt + 1, errorName: error instanceof Error ? error.name : typeof error });
        if (delay === undefined) return true;
        await new Promise((resolve) => setTimeout(resolve, delay * this.timeScale).unref());
        if (this.stopped) return false;
      }
    }
  }

  startSchedules(timeScale: number): void {
    this.timeScale = timeScale;
    for (const fn of this.functions.filter((f) => f.trigger === 'schedule-5-minutes')) {
      this.timers.push(setInterval(() => this.invokeAsync(fn, scheduledEvent(fn)), FIVE_MINUTES_MS * timeScale));
    }
  }

  /** Stops the schedules and waits up to `graceMs` for running invocations. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([Promise.all(this.inFlight), deadline]);
    clearTimeout(timer);
  }

  private invokeAsync(fn: SizedFunction<TriggeredFunction>, event: unknown): void {
    this.track(
      this.invoker.invoke(fn, event).catch((error: unknown) => {
        this.log.error('triggered function failed', { function: fn.id, errorName: error instanceof Error ? error.name : typeof error });
      }),
    );
  }

  private track<T>(work: Promise<T>): Promise<T> {
    const running = work.finally(() => this.inFlight.delete(running));
    this.inFlight.add(running);
    return running;
  }
}
