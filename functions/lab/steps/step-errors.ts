/**
 * Errors a step throws on purpose. Their `name` is what Step Functions matches in Retry and Catch
 * (statemachines/lab-extraction.asl.json), so the names are part of the contract with the ASL.
 */

/** The job is already in a terminal state (e.g. an abandoned upload expired); the execution stops quietly. */
export class JobAlreadyFinished extends Error {
  override name = 'JobAlreadyFinished';
}

/** A webhook attempt did not get a 2xx; the ASL retries Notify with backoff. */
export class WebhookDeliveryFailed extends Error {
  override name = 'WebhookDeliveryFailed';
}
