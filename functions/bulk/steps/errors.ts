/**
 * Errors the bulk workers throw on purpose; their names are matched by Retry and Catch in
 * statemachines/bulk-scoring.asl.json.
 */

/** The job has already ended (e.g. swept as overdue): the execution stops without touching it. */
export class JobAlreadyFinished extends Error {
  override name = 'JobAlreadyFinished';
}

/** The uploaded file is larger than BULK_LIMITS.maxInputBytes. */
export class BulkInputTooLarge extends Error {
  override name = 'BulkInputTooLarge';
}

/** A webhook attempt did not get a 2xx; the state machine retries Notify with backoff. */
export class WebhookDeliveryFailed extends Error {
  override name = 'WebhookDeliveryFailed';
}
