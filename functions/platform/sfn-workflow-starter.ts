import { ExecutionAlreadyExists, type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { sfn } from './aws-clients';
import type { WorkflowStarter } from './ports';

/**
 * arn:aws:states:<region>:<account>:stateMachine:<name> → the ARN Step Functions gives the execution
 * `<executionName>` of that machine (arn:aws:states:<region>:<account>:execution:<name>:<executionName>).
 */
export function executionArnOf(stateMachineArn: string, executionName: string): string {
  const parts = stateMachineArn.split(':');
  if (parts.length !== 7 || parts[5] !== 'stateMachine') throw new TypeError(`Not a state machine ARN: ${stateMachineArn}`);
  return [...parts.slice(0, 5), 'execution', parts[6], executionName].join(':');
}

export class SfnWorkflowStarter implements WorkflowStarter {
  constructor(private readonly client: Pick<SFNClient, 'send'>) {}

  /**
   * Execution names are unique per state machine for 90 days, so naming the execution after the job
   * makes a retried start harmless: Step Functions answers success for an open execution with the
   * same input and ExecutionAlreadyExists when the input differs or the execution has closed (the
   * StartExecution API reference); either way that execution is the one this job already has.
   */
  async start(stateMachineArn: string, name: string, input: Record<string, unknown>): Promise<{ executionArn: string }> {
    try {
      const out = await this.client.send(new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }));
      return { executionArn: out.executionArn ?? executionArnOf(stateMachineArn, name) };
    } catch (error) {
      if (error instanceof ExecutionAlreadyExists) return { executionArn: executionArnOf(stateMachineArn, name) };
      throw error;
    }
  }
}

/** The workflow starter on the shared Step Functions client (the local endpoint when HALE_SFN_ENDPOINT is set). */
export function workflowStarter(): WorkflowStarter {
  return new SfnWorkflowStarter(sfn());
}
