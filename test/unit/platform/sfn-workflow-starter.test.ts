import { ExecutionAlreadyExists, type StartExecutionCommand, StateMachineDoesNotExist } from '@aws-sdk/client-sfn';
import { executionArnOf, SfnWorkflowStarter } from '../../../functions/platform/sfn-workflow-starter';

const MACHINE = 'arn:aws:states:eu-west-1:123456789012:stateMachine:hale-report-generation';
const JOB = '7d7c4f4e-4a44-4b4f-9d0e-2b1f0c3e9a11';

function clientAnswering(answer: () => Promise<unknown>) {
  const sent: StartExecutionCommand[] = [];
  const send = async (command: StartExecutionCommand) => {
    sent.push(command);
    return answer();
  };
  // The starter only calls `send`; the SDK's overloaded signature cannot be met by a plain function.
  return { client: { send } as unknown as ConstructorParameters<typeof SfnWorkflowStarter>[0], sent };
}

describe('SfnWorkflowStarter', () => {
  it('starts an execution named after the job with the JSON input', async () => {
    const arn = executionArnOf(MACHINE, JOB);
    const { client, sent } = clientAnswering(async () => ({ executionArn: arn }));
    expect(await new SfnWorkflowStarter(client).start(MACHINE, JOB, { jobId: JOB, key: 'uploads/x.pdf' })).toEqual({ executionArn: arn });
    expect(sent[0]!.input).toEqual({ stateMachineArn: MACHINE, name: JOB, input: `{"jobId":"${JOB}","key":"uploads/x.pdf"}` });
  });

  it('treats an execution that already exists for the job as started', async () => {
    const { client } = clientAnswering(async () => {
      throw new ExecutionAlreadyExists({ message: 'Execution Already Exists', $metadata: {} });
    });
    expect(await new SfnWorkflowStarter(client).start(MACHINE, JOB, {})).toEqual({
      executionArn: `arn:aws:states:eu-west-1:123456789012:execution:hale-report-generation:${JOB}`,
    });
  });

  it('passes other failures on', async () => {
    const { client } = clientAnswering(async () => {
      throw new StateMachineDoesNotExist({ message: 'no such machine', $metadata: {} });
    });
    await expect(new SfnWorkflowStarter(client).start(MACHINE, JOB, {})).rejects.toBeInstanceOf(StateMachineDoesNotExist);
  });

  it('refuses to derive an execution ARN from something that is not a state machine ARN', () => {
    expect(() => executionArnOf('arn:aws:lambda:eu-west-1:123456789012:function:x', JOB)).toThrow('Not a state machine ARN');
  });
});
