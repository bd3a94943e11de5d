import { Aws, Fn } from 'aws-cdk-lib';

/**
 * The UUID part of `AWS::StackId` (`arn:…:stack/<name>/<uuid>`), new for every creation of the stack.
 * Physical names of retained resources end with it: a deleted stack leaves them behind, and a stack
 * created again under the same name must not collide with them (CloudFormation fails on an existing
 * name). It is a pseudo parameter, known before any resource exists, so a name built from it creates no
 * dependency.
 */
export function stackInstanceId(): string {
  return Fn.select(2, Fn.split('/', Aws.STACK_ID));
}
