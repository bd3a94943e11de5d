import { App, type AppProps } from 'aws-cdk-lib';
import { addNagChecks } from './nag';

/**
 * CDK feature flags Hale relies on, set in code (not cdk.json) so that the tests synthesise exactly
 * what `cdk synth` does. serverAccessLogsUseBucketPolicy: grant S3 log delivery by bucket policy;
 * the legacy ACL grant is incompatible with BucketOwnerEnforced object ownership.
 */
export const FEATURE_FLAGS = {
  '@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy': true,
} as const;

/** The CDK app with Hale's feature flags and the cdk-nag packs that every synth runs. */
export function createApp(props: AppProps = {}): App {
  const app = new App({ ...props, context: { ...FEATURE_FLAGS, ...props.context } });
  addNagChecks(app);
  return app;
}
