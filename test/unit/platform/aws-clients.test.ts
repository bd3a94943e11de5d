import { dynamoDocumentClient, resetAwsClientsForTests, s3, sfn } from '../../../functions/platform/aws-clients';
import { resetConfigForTests } from '../../../functions/platform/config';

const ENDPOINT_SETTINGS = ['HALE_DYNAMODB_ENDPOINT', 'HALE_S3_ENDPOINT', 'HALE_SFN_ENDPOINT'] as const;
const ORIGINAL_REGION = process.env.AWS_REGION;

function configure(env: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
  resetAwsClientsForTests();
}

afterEach(() => configure({ HALE_RUNTIME: undefined, AWS_REGION: ORIGINAL_REGION, ...Object.fromEntries(ENDPOINT_SETTINGS.map((name) => [name, undefined])) }));

describe('shared AWS clients', () => {
  it('in AWS: default endpoints, virtual-hosted S3, and no checksum baked into pre-signed URLs', async () => {
    configure({ HALE_RUNTIME: 'aws', AWS_REGION: 'eu-west-1' });
    expect(s3().config.forcePathStyle).toBe(false);
    expect(s3().config.endpoint).toBeUndefined();
    expect(await s3().config.requestChecksumCalculation()).toBe('WHEN_REQUIRED');
    expect(await sfn().config.region()).toBe('eu-west-1');
  });

  it('locally: the embedded servers, path-style S3 and the fixed credentials s3rver accepts', async () => {
    configure({
      HALE_RUNTIME: 'local',
      HALE_DYNAMODB_ENDPOINT: 'http://127.0.0.1:4567',
      HALE_S3_ENDPOINT: 'http://127.0.0.1:4568',
      HALE_SFN_ENDPOINT: 'http://127.0.0.1:4569',
    });
    expect(s3().config.forcePathStyle).toBe(true);
    expect((await s3().config.endpoint?.())?.port).toBe(4568);
    expect((await sfn().config.endpoint?.())?.port).toBe(4569);
    expect((await dynamoDocumentClient().config.endpoint?.())?.port).toBe(4567);
    expect(await s3().config.credentials()).toMatchObject({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
  });

  it('creates each client once until reset', () => {
    configure({ HALE_RUNTIME: 'aws' });
    const first = s3();
    expect(s3()).toBe(first);
    expect(dynamoDocumentClient()).toBe(dynamoDocumentClient());
    resetAwsClientsForTests();
    expect(s3()).not.toBe(first);
  });
});
