import { dynamoDocumentClient, resetAwsClientsForTests, s3, sfn } from '../../../functions/platform/aws-clients';
import { resetConfigForTests } from '../../../functions/platform/config';

const ENDPOINT_SETTINGS = ['HALE_DYNAMODB_ENDPOINT', 'HALE_S3_ENDPOINT', 'HALE_SFN_ENDPOINT'] as const;
const ORIGINAL_REGION = process.env.AWS_REGION;
const ORIGINAL_TRACE_ENABLED = process.env.POWERTOOLS_TRACE_ENABLED;

function configure(env: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
  resetAwsClientsForTests();
}

afterEach(() =>
  configure({
    HALE_RUNTIME: undefined,
    AWS_REGION: ORIGINAL_REGION,
    AWS_EXECUTION_ENV: undefined,
    POWERTOOLS_TRACE_ENABLED: ORIGINAL_TRACE_ENABLED,
    POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: undefined,
    ...Object.fromEntries(ENDPOINT_SETTINGS.map((name) => [name, undefined])),
  }),
);

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

describe('X-Ray tracing of the clients', () => {
  /** Loads aws-clients afresh, counting whether the Powertools tracer module is loaded meanwhile. */
  function clientsLoadingTracer(runtime: 'aws' | 'local'): { traced: boolean; tracerLoaded: boolean } {
    // Powertools traces inside a Lambda function only; patching Node's http for every test after is not wanted.
    configure({ HALE_RUNTIME: runtime, AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', POWERTOOLS_TRACE_ENABLED: 'true', POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: 'false' });
    let tracerLoaded = false;
    let traced = false;
    jest.isolateModules(() => {
      jest.doMock('@aws-lambda-powertools/tracer', () => {
        tracerLoaded = true;
        return jest.requireActual('@aws-lambda-powertools/tracer');
      });
      const clients = jest.requireActual<typeof import('../../../functions/platform/aws-clients')>('../../../functions/platform/aws-clients');
      traced = clients.s3().middlewareStack.identify().some((name) => /XRay/i.test(name));
      clients.sfn();
      clients.dynamoDocumentClient();
    });
    return { traced, tracerLoaded };
  }

  it('in AWS, traces every call of each client', () => {
    expect(clientsLoadingTracer('aws')).toEqual({ traced: true, tracerLoaded: true });
  });

  it('locally, never loads the tracer: its X-Ray SDK would turn on async hooks for the whole runtime', () => {
    expect(clientsLoadingTracer('local')).toEqual({ traced: false, tracerLoaded: false });
  });
});
