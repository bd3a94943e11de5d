import { RemovalPolicy } from 'aws-cdk-lib';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { Capability } from '../functions/routes';
import { acknowledge } from './nag';

/**
 * Secrets Manager holds the generated webhook signing secret, webhook API key and credentials key.
 *
 * Functions receive the values as environment variables written from CloudFormation dynamic
 * references (`{{resolve:secretsmanager:…}}`): the template and the cloud assembly carry only the
 * reference, and `functions/platform/config.ts` reads the settings it already defines, with no
 * Secrets Manager client in the handlers. The trade-off: the resolved value is visible to principals
 * allowed lambda:GetFunctionConfiguration (environments are encrypted with the stack's CMK), and a
 * changed secret reaches the functions on the next deploy, not at once. Only functions with the
 * `webhookSecrets` / `credentialsKey` capability get them.
 */
export class Secrets extends Construct {
  readonly webhookSigning: secretsmanager.Secret;
  readonly webhookApiKey: secretsmanager.Secret;
  readonly credentialsKey: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: { key: kms.IKey }) {
    super(scope, id);
    // Alphanumeric strings are valid base64: 32 characters decode to the 24 random bytes of the
    // Standard Webhooks secret, 43 to the 32-byte AES key of config.ts.
    this.webhookSigning = this.generated('WebhookSigningSecret', 'base64 body of the Standard Webhooks signing secret (the stack adds the whsec_ prefix)', 32, props.key);
    this.webhookApiKey = this.generated('WebhookApiKey', 'value of the X-API-Key header on lab webhooks', 40, props.key);
    this.credentialsKey = this.generated('CredentialsKey', '32-byte key (base64) that encrypts report callback credentials at rest', 43, props.key);
  }

  /** Environment variables for a function with these capabilities. */
  environmentFor(capabilities: readonly Capability[]): Record<string, string> {
    const env: Record<string, string> = {};
    if (capabilities.includes('webhookSecrets')) {
      env.HALE_WEBHOOK_SIGNING_SECRET = `whsec_${this.webhookSigning.secretValue.unsafeUnwrap()}`;
      env.HALE_WEBHOOK_API_KEY = this.webhookApiKey.secretValue.unsafeUnwrap();
    }
    if (capabilities.includes('credentialsKey')) {
      env.HALE_CREDENTIALS_KEY = this.credentialsKey.secretValue.unsafeUnwrap();
    }
    return env;
  }

  private generated(id: string, description: string, length: number, key: kms.IKey): secretsmanager.Secret {
    const secret = new secretsmanager.Secret(this, id, {
      description: `Hale: ${description}`,
      encryptionKey: key,
      generateSecretString: { passwordLength: length, excludePunctuation: true, includeSpace: false },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const manualRotation =
      'Rotating these needs coordination a Lambda rotator cannot do: webhook receivers must be given the new key, and credentials encrypted under the old key must be re-encrypted first. Rotate by hand as described in infra/README.md.';
    acknowledge(secret, [
      ['AwsSolutions-SMG4', manualRotation],
      ['HIPAA.Security-SecretsManagerRotationEnabled', manualRotation],
    ]);
    return secret;
  }
}
