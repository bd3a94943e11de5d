import path from 'node:path';
import { createApp } from './create-app';
import { HaleStack } from './hale-stack';

/**
 * `npm run synth` / `cdk deploy`. Context (cdk.json or `-c key=value`): stackName, domainName +
 * certificateArn (optional custom domain), alarmEmail, bedrockModelId, uploadCorsOrigins
 * (comma-separated), phiDetector, ocrEngine, lambdaConcurrencyLimit. See infra/README.md.
 */
const app = createApp();
const context = (key: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};
const domainName = context('domainName');
const certificateArn = context('certificateArn');
if ((domainName === undefined) !== (certificateArn === undefined)) {
  throw new Error('Set both domainName and certificateArn context values for a custom domain, or neither');
}
const concurrencyLimit = context('lambdaConcurrencyLimit');
if (concurrencyLimit !== undefined && !/^[1-9]\d*$/.test(concurrencyLimit)) {
  throw new Error(`lambdaConcurrencyLimit must be the account's Lambda concurrency quota, a positive integer, not '${concurrencyLimit}'`);
}
const phiDetector = context('phiDetector');
if (phiDetector !== undefined && phiDetector !== 'comprehend' && phiDetector !== 'builtin') {
  throw new Error(`phiDetector must be 'comprehend' (Amazon Comprehend Medical, the default) or 'builtin', not '${phiDetector}'`);
}

const ocrEngine = context('ocrEngine');
if (ocrEngine !== undefined && ocrEngine !== 'tesseract' && ocrEngine !== 'textract') {
  throw new Error(`ocrEngine must be 'tesseract' (tesseract.js inside the Recognize function, the default) or 'textract' (Amazon Textract), not '${ocrEngine}'`);
}

new HaleStack(app, context('stackName') ?? 'Hale', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  domain: domainName && certificateArn ? { domainName, certificateArn } : undefined,
  alarmEmail: context('alarmEmail'),
  bedrockModelId: context('bedrockModelId'),
  uploadCorsOrigins: context('uploadCorsOrigins')?.split(',').map((origin) => origin.trim()),
  phiDetector,
  ocrEngine,
  lambdaConcurrencyLimit: concurrencyLimit === undefined ? undefined : Number(concurrencyLimit),
});

// `cdk synth -q` prints nothing: say where the template went (the CLI's output folder, cdk.out by default).
const assembly = app.synth();
for (const stack of assembly.stacks) {
  process.stderr.write(`CloudFormation template of stack ${stack.stackName}: ${path.relative(process.cwd(), path.join(assembly.directory, stack.templateFile))}\n`);
}
