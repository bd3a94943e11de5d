/**
 * The one error a step throws on purpose; its `name` is what Step Functions matches in Catch
 * (statemachines/lab-extraction.asl.json). Every way a job ends, and a webhook attempt that failed,
 * is a returned result instead: anything else thrown is a fault.
 */

/** The job is already in a terminal state (e.g. an abandoned upload expired); the execution stops quietly. */
export class JobAlreadyFinished extends Error {
  override name = 'JobAlreadyFinished';
}
