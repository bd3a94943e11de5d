import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DELIVERY_FAILED_METRICS } from '../functions/platform/delivery-retry';
import type { ApiGroup } from './apis';
import type { HaleFunction } from './functions';

export interface ObservabilityProps {
  apis: Record<ApiGroup, apigw.RestApi>;
  table: dynamodb.ITable;
  /** The account's Lambda concurrency quota in the region (context `lambdaConcurrencyLimit`). */
  lambdaConcurrencyLimit: number;
  /** Longest route timeout per API, in seconds (latency alarms fire at a share of it). */
  apiTimeoutSeconds: Record<ApiGroup, number>;
  functions: readonly [string, HaleFunction][];
  machines: ReadonlyMap<string, sfn.StateMachine>;
  deadLetterQueue: sqs.IQueue;
  key: kms.IKey;
  alarmEmail?: string;
}

const PERIOD = Duration.minutes(5);
/**
 * Starting thresholds, to be tuned on real traffic: a server error rate above 1 % or a client error
 * rate above 25 % over two of three five-minute periods, and latency or duration past 80 % / 90 % of
 * the limit that would cut the request off.
 */
const API_5XX_RATE = 0.01;
const API_4XX_RATE = 0.25;
const API_LATENCY_SHARE_OF_TIMEOUT = 0.8;
const DURATION_SHARE_OF_TIMEOUT = 0.9;
/** Claimed concurrency at this share of the account's quota leaves time to raise it before functions are throttled. */
const CONCURRENCY_SHARE_OF_QUOTA = 0.8;
/** AWS's default Lambda concurrency quota per account and region (new accounts may start lower). */
export const DEFAULT_LAMBDA_CONCURRENCY_LIMIT = 1000;

/** The jobs repository's operations (functions/platform/dynamodb-jobs-repository.ts), whose throttled requests are summed. */
const TABLE_OPERATIONS = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.TRANSACT_WRITE_ITEMS,
];

/** A metric Hale's functions emit as EMF through Powertools Metrics (namespace Hale, dimension service=hale). */
function haleMetric(metricName: string): cloudwatch.Metric {
  return new cloudwatch.Metric({ namespace: 'Hale', metricName, dimensionsMap: { service: 'hale' }, statistic: 'Sum', period: PERIOD });
}

/** One dashboard and the alarms behind it, all notifying one encrypted SNS topic. */
export class Observability extends Construct {
  readonly topic: sns.Topic;
  readonly dashboard: cloudwatch.Dashboard;
  private readonly action: actions.SnsAction;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Alarms', { displayName: 'Hale alarms', masterKey: props.key, enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    this.action = new actions.SnsAction(this.topic);
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(6) });

    for (const [group, api] of Object.entries(props.apis) as [ApiGroup, apigw.RestApi][]) {
      const serverErrors = api.metricServerError({ statistic: 'Average', period: PERIOD });
      const clientErrors = api.metricClientError({ statistic: 'Average', period: PERIOD });
      const latency = api.metricLatency({ statistic: 'p99', period: PERIOD });
      const latencyLimitMs = props.apiTimeoutSeconds[group] * 1000 * API_LATENCY_SHARE_OF_TIMEOUT;
      this.alarm(`${group}-api-5xx`, serverErrors, API_5XX_RATE, `More than ${API_5XX_RATE * 100}% of ${group} API requests fail with 5xx. Check the Errors alarms of its functions and their logs (by requestId) and recent deploys.`, 2);
      this.alarm(`${group}-api-4xx`, clientErrors, API_4XX_RATE, `More than ${API_4XX_RATE * 100}% of ${group} API requests are rejected with 4xx. Look at the access logs' errorType: many 401/429 point at a misconfigured or abusive client, many 400/422 at a client built against another contract.`, 2);
      this.alarm(`${group}-api-p99-latency`, latency, latencyLimitMs, `p99 latency of the ${group} API is near its timeout (${latencyLimitMs} ms). Check the Duration of its functions and of their dependencies (X-Ray).`, 2);
      this.dashboard.addWidgets(
        new cloudwatch.GraphWidget({ title: `${group} API requests`, left: [api.metricCount({ period: PERIOD })], width: 8 }),
        new cloudwatch.GraphWidget({ title: `${group} API error rates`, left: [clientErrors, serverErrors], width: 8 }),
        new cloudwatch.GraphWidget({ title: `${group} API p99 latency`, left: [latency], width: 8 }),
      );
    }

    for (const [id, { fn, timeoutSeconds }] of props.functions) {
      const errors = fn.metricErrors({ period: PERIOD, statistic: 'Sum' });
      const throttles = fn.metricThrottles({ period: PERIOD, statistic: 'Sum' });
      const duration = fn.metricDuration({ period: PERIOD, statistic: 'p99' });
      this.alarm(`${id}-errors`, errors, 1, `${id} failed with an error: a fault, since callers' mistakes and failed deliveries are results, not errors (routes answer them, workers return them). Open its log group filtered on level ERROR; a crash or a timeout shows there.`);
      this.alarm(`${id}-throttles`, throttles, 1, `${id} was throttled: the account's concurrency is exhausted. Check ConcurrentExecutions across functions and request a quota increase or reserve concurrency.`);
      this.alarm(`${id}-duration-p99`, duration, timeoutSeconds * 1000 * DURATION_SHARE_OF_TIMEOUT, `${id} p99 duration is near its ${timeoutSeconds} s timeout. Check X-Ray for the slow dependency, or raise memory/timeout in its route or worker definition.`);
      this.dashboard.addWidgets(
        new cloudwatch.GraphWidget({ title: `${id}`, left: [errors, throttles], right: [duration], width: 8, height: 4 }),
      );
    }

    for (const [name, machine] of props.machines) {
      const failed = machine.metricFailed({ period: PERIOD });
      const timedOut = machine.metricTimedOut({ period: PERIOD });
      this.alarm(`${name}-executions-failed`, failed, 1, `Executions of ${name} failed: a fault (a step threw, timed out or crashed), since every outcome a job can have for its caller ends the execution successfully. The job itself was ended and its caller told. Open the failed execution (its error names the fault), then the failed task's log group; redrive it once fixed if the job should run again.`);
      this.alarm(`${name}-executions-timed-out`, timedOut, 1, `Executions of ${name} exceeded the machine's TimeoutSeconds, so their jobs never reached a terminal state. Find the stuck state in the execution history; mark the jobs failed if needed.`);
      this.dashboard.addWidgets(
        new cloudwatch.GraphWidget({ title: `${name} executions`, left: [machine.metricStarted({ period: PERIOD }), machine.metricSucceeded({ period: PERIOD }), failed, timedOut], width: 12 }),
      );
    }

    const webhookFailures = haleMetric(DELIVERY_FAILED_METRICS.webhook);
    this.alarm('webhook-delivery-failed', webhookFailures, 1, 'A lab webhook has finally failed: every attempt (six, over about ten minutes) or a refusal by the outbound guard. The job records its attempts (status codes, errors) and keeps its state; contact the receiver if its endpoint is down or rejects the X-API-Key.');
    const callbackFailures = haleMetric(DELIVERY_FAILED_METRICS.callback);
    this.alarm('callback-delivery-failed', callbackFailures, 1, "A report's file or status callback has finally failed: every attempt (five), or the target refused it (4xx, a 403 from a pre-signed URL, a target the outbound guard refuses). A failed file fails its job (error_type and message say why); the job records every attempt. Contact the caller if their endpoint is down or misconfigured.");

    const throttled = props.table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: PERIOD });
    this.alarm('jobs-table-throttled', throttled, 1, 'The jobs table throttled requests (on demand, so a partition or the per-table account quota was exceeded, or traffic more than doubled its previous peak within 30 minutes). The SDK retries, but workers may fail and routes answer 502. Check the table\'s ReadThrottleEvents/WriteThrottleEvents and the open-jobs index, and raise the table quota if traffic is genuine.', 2);
    const claimed = new cloudwatch.Metric({ namespace: 'AWS/Lambda', metricName: 'ClaimedAccountConcurrency', statistic: 'Maximum', period: Duration.minutes(1) });
    const concurrencyThreshold = Math.floor(props.lambdaConcurrencyLimit * CONCURRENCY_SHARE_OF_QUOTA);
    this.alarm('lambda-concurrency-near-quota', claimed, concurrencyThreshold, `The account's Lambda functions claim ${concurrencyThreshold} or more of its ${props.lambdaConcurrencyLimit} concurrent executions (ClaimedAccountConcurrency): beyond the quota every function is throttled (429 from routes, retried tasks). Find the busy functions (ConcurrentExecutions per function) and request a higher quota; set -c lambdaConcurrencyLimit to the account's real quota.`, 3);
    const deadLetters = props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' });
    this.alarm('trigger-dead-letters', deadLetters, 1, 'An upload or schedule trigger failed after its retries; its event waits in the dead-letter queue. Read the message (object key, no contents), fix the cause and re-drive it.');
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({ title: 'Deliveries that finally failed', left: [webhookFailures, callbackFailures], width: 6 }),
      new cloudwatch.GraphWidget({ title: 'Trigger dead letters', left: [deadLetters], width: 6 }),
      new cloudwatch.GraphWidget({ title: 'Jobs table throttled requests', left: [throttled], width: 6 }),
      new cloudwatch.GraphWidget({ title: 'Lambda claimed concurrency', left: [claimed], leftAnnotations: [{ value: props.lambdaConcurrencyLimit, label: 'quota' }], width: 6 }),
    );
  }

  private alarm(id: string, metric: cloudwatch.IMetric, threshold: number, description: string, datapoints = 1): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmDescription: description,
      metric,
      threshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: datapoints === 1 ? 1 : 3,
      datapointsToAlarm: datapoints,
      // No traffic, no executions, no failures: silence is healthy, never an alarm.
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    return alarm;
  }
}
