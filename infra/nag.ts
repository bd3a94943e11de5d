import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, HIPAASecurityChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/** Runs the AWS Solutions and HIPAA Security packs on every synth; a finding fails it unless acknowledged. */
export function addNagChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new HIPAASecurityChecks(app));
}

/** Acknowledges findings on a construct (and its children), each with the reason it does not apply. */
export function acknowledge(scope: IConstruct, findings: readonly (readonly [id: string, reason: string])[]): void {
  for (const [id, reason] of findings) Validations.of(scope).acknowledge({ id, reason });
}
