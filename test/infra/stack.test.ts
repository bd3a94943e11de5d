import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { LAMBDA_SYNC_PAYLOAD_BYTES, MAX_REQUEST_BODY_BYTES, TOO_LARGE_MESSAGE } from '../../functions/http/request-limits';
import { DELIVERY_FAILED_METRICS } from '../../functions/platform/delivery-retry';
import { JOBS_TABLE } from '../../functions/platform/resources';
import { API_GATEWAY_TIMEOUT_SECONDS, API_TIMEOUT_MARGIN_SECONDS, DEMO_LIMITS, REFERENCE_LIMITS, ROUTES } from '../../functions/routes';
import { createApp } from '../../infra/create-app';
import { HaleStack } from '../../infra/hale-stack';
import { FIXTURE_ASL, FIXTURE_WORKERS } from './fixtures/workers';

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

/** One full synth (every route and fixture worker bundled, cdk-nag on) shared by the tests below. */
let outdir: string;
let template: Template;
let resources: Resources;
let synthError: unknown;

beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'hale-cdk-'));
  const app = createApp({ outdir });
  const stack = new HaleStack(app, 'HaleTest', {
    workers: FIXTURE_WORKERS,
    aslFiles: FIXTURE_ASL,
    domain: { domainName: 'api.hale.example', certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/0e0e0e0e-1111-2222-3333-444444444444' },
    alarmEmail: 'oncall@hale.example',
  });
  try {
    app.synth();
  } catch (error) {
    synthError = error;
  }
  template = Template.fromJSON(JSON.parse(readFileSync(path.join(outdir, `${stack.artifactId}.template.json`), 'utf8')));
  resources = template.toJSON().Resources as Resources;
});

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

function ofType(type: string): [string, Resources[string]][] {
  return Object.entries(resources).filter(([, r]) => r.Type === type);
}

function logicalIdOf(type: string, pathFragment: string): string {
  const match = Object.entries(resources).find(
    ([id, r]) => r.Type === type && id.startsWith(pathFragment.replace(/[^A-Za-z0-9]/g, '')),
  );
  if (!match) throw new Error(`no ${type} whose logical id starts with ${pathFragment}`);
  return match[0];
}

const functionId = (id: string) => logicalIdOf('AWS::Lambda::Function', `Functions${id}`);
const restApiId = (group: string) => logicalIdOf('AWS::ApiGateway::RestApi', `Apis${group}`);

function policyStatementsOf(functionLogicalId: string): { Action: string | string[]; Resource: unknown }[] {
  const roleRef = (resources[functionLogicalId]!.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return ofType('AWS::IAM::ManagedPolicy')
    .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleRef))
    .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement);
}

/** CDK's singleton BucketDeployment handler (the widget's deployment), not a Hale function. */
const DEPLOYMENT_HANDLER = 'CustomCDKBucketDeployment';

const actionsOf = (statements: { Action: string | string[] }[]) => statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

describe('cdk-nag', () => {
  it('finds nothing unacknowledged in the AWS Solutions and HIPAA Security packs', () => {
    expect(synthError).toBeUndefined();
    const report = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as {
      pluginReports: { pluginName: string; violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[] }[];
    };
    const findings = report.pluginReports.flatMap((p) =>
      p.violations.flatMap((v) => v.violatingConstructs.map((c) => `${p.pluginName} ${v.ruleName} ${c.constructPath}`)),
    );
    expect(findings).toEqual([]);
  });

  it('does run on every app: an unencrypted, unlogged bucket fails synth', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hale-nag-'));
    try {
      const app = createApp({ outdir: dir });
      new s3.Bucket(new Stack(app, 'Careless'), 'Bucket');
      expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
      const report = readFileSync(path.join(dir, 'validation-report.json'), 'utf8');
      expect(report).toContain('AwsSolutions-S1');
      expect(report).toContain('HIPAA.Security-S3BucketLoggingEnabled');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('functions', () => {
  it('has one Node.js 22 arm64 function per route and worker, each with memory, timeout, tracing and its own log group', () => {
    const functions = ofType('AWS::Lambda::Function').filter(([id]) => !id.startsWith(DEPLOYMENT_HANDLER));
    expect(functions).toHaveLength(ROUTES.length + FIXTURE_WORKERS.length);
    for (const [, fn] of functions) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: expect.any(Number),
        Timeout: expect.any(Number),
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: expect.any(String) } },
        Handler: 'index.handler',
      });
    }
    for (const [, group] of ofType('AWS::Logs::LogGroup')) {
      expect(group.Properties).toMatchObject({ RetentionInDays: expect.any(Number), KmsKeyId: expect.anything() });
    }
  });

  it('takes memory and timeout from the definition, else the defaults', () => {
    expect(resources[functionId('LabUpload')]!.Properties).toMatchObject({ MemorySize: 1024, Timeout: 25 });
    expect(resources[functionId('LabDetectPhi')]!.Properties).toMatchObject({ MemorySize: 2048, Timeout: 120 });
    expect(resources[functionId('Ping')]!.Properties).toMatchObject({ MemorySize: 512, Timeout: 10 });
    expect(resources[functionId('LabValidate')]!.Properties).toMatchObject({ MemorySize: 1024, Timeout: 60 });
  });

  it('gives every function the shared settings and secrets only to those that declare them', () => {
    const env = (id: string) => (resources[functionId(id)]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(env('Ping')).toMatchObject({
      HALE_RUNTIME: 'aws',
      HALE_JOBS_TABLE: { Ref: expect.stringMatching(/^StorageJobsTable/) },
      HALE_ARTIFACTS_BUCKET: { Ref: expect.stringMatching(/^StorageArtifactsBucket/) },
      POWERTOOLS_SERVICE_NAME: 'hale',
      POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
    });
    expect(JSON.stringify(env('Ping').HALE_LAB_STATE_MACHINE_ARN)).toContain('stateMachine:HaleTest-lab-extraction');
    expect(env('Ping')).not.toHaveProperty('HALE_CREDENTIALS_KEY');
    expect(env('Ping')).not.toHaveProperty('HALE_WEBHOOK_SIGNING_SECRET');
    expect(JSON.stringify(env('ReportFull').HALE_CREDENTIALS_KEY)).toMatch(/\{\{resolve:secretsmanager:/);
    expect(JSON.stringify(env('ReportRender').HALE_WEBHOOK_SIGNING_SECRET)).toMatch(/whsec_.*\{\{resolve:secretsmanager:/);
    expect(ofType('AWS::SecretsManager::Secret')).toHaveLength(3);
  });

  it('grants each function only what its capabilities name', () => {
    const ping = actionsOf(policyStatementsOf(functionId('Ping')));
    expect(ping.some((a) => a.startsWith('dynamodb:') || a.startsWith('s3:') || a.startsWith('states:'))).toBe(false);
    const upload = policyStatementsOf(functionId('LabUpload'));
    expect(actionsOf(upload)).toEqual(expect.arrayContaining(['dynamodb:UpdateItem', 's3:PutObject', 'states:StartExecution', 'kms:GenerateDataKey']));
    const start = upload.find((s) => s.Action === 'states:StartExecution')!;
    expect(JSON.stringify(start.Resource)).toContain('stateMachine:HaleTest-lab-extraction');
    expect(actionsOf(policyStatementsOf(functionId('LabDetectPhi')))).toContain('comprehendmedical:DetectPHI');
    expect(actionsOf(policyStatementsOf(functionId('ReportFull')))).not.toContain('comprehendmedical:DetectPHI');
    for (const [, fn] of ofType('AWS::IAM::Policy')) {
      throw new Error(`unexpected inline policy ${JSON.stringify(fn.Properties.PolicyName)}`);
    }
  });

  it('gives the read-only routes read actions only: no writes, no deletes, no data keys', () => {
    const writes = /^(dynamodb:(Put|Update|Delete|ConditionCheck|BatchWrite)|s3:(Put|Delete)|kms:(GenerateDataKey|Encrypt|ReEncrypt)|states:Start)/;
    for (const route of ROUTES.filter((r) => r.permissions?.length && r.permissions.every((p) => p.endsWith(':read')))) {
      const actions = actionsOf(policyStatementsOf(functionId(route.id)));
      expect({ route: route.id, writes: actions.filter((a) => writes.test(a)) }).toEqual({ route: route.id, writes: [] });
      expect(actions).toContain('dynamodb:GetItem');
    }
    expect(ROUTES.filter((r) => r.permissions?.every((p) => p.endsWith(':read'))).map((r) => r.id)).toEqual(expect.arrayContaining(['ReportStatus', 'LabStatus', 'LabResults']));
  });

  it('lets every role use the stack key only through the service that holds the data, or for one named resource', () => {
    type Statement = { Action: string | string[]; Condition?: Record<string, Record<string, unknown>> };
    const keyStatements = ofType('AWS::IAM::ManagedPolicy').flatMap(([id, p]) =>
      (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement.filter((s) => actionsOf([s]).some((a) => a.startsWith('kms:'))).map((s) => ({ id, s })),
    );
    expect(keyStatements.length).toBeGreaterThan(ROUTES.length);
    for (const { id, s } of keyStatements) {
      const keys = Object.values(s.Condition ?? {}).flatMap((condition) => Object.keys(condition));
      expect({ id, scoped: keys.some((k) => k === 'kms:ViaService' || k.startsWith('kms:EncryptionContext:')) }).toEqual({ id, scoped: true });
    }
    const dataKeys = policyStatementsOf(functionId('LabUpload')).filter((s) => actionsOf([s]).includes('kms:GenerateDataKey')) as Statement[];
    expect(dataKeys.map((s) => JSON.stringify(s.Condition))).toEqual(
      expect.arrayContaining([expect.stringContaining('"kms:ViaService":{"Fn::Join":["",["dynamodb.'), expect.stringContaining('"kms:ViaService":{"Fn::Join":["",["s3.'), expect.stringContaining('aws:states:stateMachineArn')]),
    );
  });

  it('bundles each handler as minified ESM and copies declared bundleFiles next to it', () => {
    const assetDir = (id: string) => {
      const key = (resources[functionId(id)]!.Properties.Code as { S3Key: string }).S3Key;
      return path.join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
    };
    const ping = readFileSync(path.join(assetDir('Ping'), 'index.mjs'), 'utf8');
    expect(ping.startsWith("import{createRequire as __haleCreateRequire}from'node:module'")).toBe(true);
    // Minified: a handful of very long lines, with the source map beside it.
    expect(ping.length / ping.split('\n').length).toBeGreaterThan(1000);
    expect(ping).toContain('//# sourceMappingURL=index.mjs.map');
    expect(readFileSync(path.join(assetDir('ReportRender'), 'fonts', 'DejaVuSans.ttf')).length).toBeGreaterThan(0);
    expect(() => readFileSync(path.join(assetDir('Ping'), 'fonts', 'DejaVuSans.ttf'))).toThrow();
  });

  it('sends failed events of triggered workers to the dead-letter queue, and only theirs', () => {
    const dlq = logicalIdOf('AWS::SQS::Queue', 'TriggerDeadLetters');
    for (const id of ['LabUploadTrigger', 'Sweeper']) {
      expect(resources[functionId(id)]!.Properties.DeadLetterConfig).toEqual({ TargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] } });
    }
    expect(resources[functionId('LabValidate')]!.Properties.DeadLetterConfig).toBeUndefined();
  });
});

describe('APIs', () => {
  it('puts main, reference and extraction routes on three REST APIs with API keys on every non-anonymous method', () => {
    expect(ofType('AWS::ApiGateway::RestApi')).toHaveLength(3);
    const methods = ofType('AWS::ApiGateway::Method');
    // Every route, plus the widget's files (see 'widget' below).
    expect(methods).toHaveLength(ROUTES.length + 1);
    for (const route of ROUTES) {
      const group = route.api === 'extraction' ? 'extraction' : route.rateLimitGroup === 'reference' ? 'reference' : 'main';
      const method = methods.find(([, m]) => JSON.stringify(m.Properties.Integration).includes(functionId(route.id)));
      expect(method).toBeDefined();
      expect(method![1].Properties).toMatchObject({ HttpMethod: route.method, ApiKeyRequired: !route.anonymous, RestApiId: { Ref: restApiId(group) } });
    }
    // The extraction API serves /lab/... (mapped at base path `extraction`), never /extraction/...
    const pathParts = ofType('AWS::ApiGateway::Resource').map(([, r]) => r.Properties.PathPart);
    expect(pathParts).not.toContain('extraction');
    expect(pathParts).toEqual(expect.arrayContaining(['lab', 'upload', '{jobId}', 'reference-data', 'lab-ranges']));
  });

  it('limits the reference group to 50 rps and 1,000 requests a day per key, on the reference API only', () => {
    const plans = ofType('AWS::ApiGateway::UsagePlan');
    expect(plans).toHaveLength(2);
    const reference = plans.find(([, p]) => p.Properties.Quota !== undefined)![1].Properties;
    expect(reference).toMatchObject({
      Throttle: { RateLimit: REFERENCE_LIMITS.requestsPerSecond, BurstLimit: REFERENCE_LIMITS.burst },
      Quota: { Limit: REFERENCE_LIMITS.requestsPerDay, Period: 'DAY' },
      ApiStages: [{ ApiId: { Ref: restApiId('reference') } }],
    });
    expect(REFERENCE_LIMITS).toMatchObject({ requestsPerSecond: 50, requestsPerDay: 1000 });
    const standard = plans.find(([, p]) => p.Properties.Quota === undefined)![1].Properties;
    expect(JSON.stringify(standard.ApiStages)).not.toContain(restApiId('reference'));
  });

  it('logs access as JSON, traces, throttles and never logs bodies on every stage', () => {
    const stages = ofType('AWS::ApiGateway::Stage');
    expect(stages).toHaveLength(3);
    for (const [, stage] of stages) {
      expect(stage.Properties).toMatchObject({
        TracingEnabled: true,
        AccessLogSetting: { DestinationArn: expect.anything(), Format: expect.stringContaining('"requestId":"$context.requestId"') },
        MethodSettings: expect.arrayContaining([
          expect.objectContaining({ ResourcePath: '/*', HttpMethod: '*', ThrottlingRateLimit: expect.any(Number), ThrottlingBurstLimit: expect.any(Number) }),
        ]),
      });
      for (const setting of stage.Properties.MethodSettings as Record<string, unknown>[]) expect(setting).toMatchObject({ DataTraceEnabled: false, LoggingLevel: 'ERROR' });
    }
  });

  it('throttles the anonymous demo data route on its own, without a key or usage plan', () => {
    const demoRoutes = ROUTES.filter((route) => route.rateLimitGroup === 'demo');
    expect(demoRoutes.map((route) => route.id)).toEqual(['DemoData']);
    const main = ofType('AWS::ApiGateway::Stage').find(([, stage]) => (stage.Properties.RestApiId as { Ref: string }).Ref === restApiId('main'))![1];
    expect((main.Properties.MethodSettings as unknown[]).filter((s) => (s as { ResourcePath: string }).ResourcePath !== '/*')).toEqual([
      expect.objectContaining({ ResourcePath: '/~1demo~1data', HttpMethod: 'GET', ThrottlingRateLimit: DEMO_LIMITS.requestsPerSecond, ThrottlingBurstLimit: DEMO_LIMITS.burst }),
    ]);
    const method = ofType('AWS::ApiGateway::Method').find(([, m]) => JSON.stringify(m.Properties.Integration).includes(functionId('DemoData')))![1];
    expect(method.Properties).toMatchObject({ ApiKeyRequired: false, AuthorizationType: 'NONE' });
  });

  it('answers gateway errors in each API dialect: 401 for keys, 404 for unknown routes, 429 for limits, with CORS', () => {
    const responses = ofType('AWS::ApiGateway::GatewayResponse').map(([, r]) => r.Properties);
    const of = (group: string, type: string) =>
      responses.find((r) => r.ResponseType === type && (r.RestApiId as { Ref: string }).Ref === restApiId(group));
    for (const group of ['main', 'reference', 'extraction']) {
      expect(of(group, 'INVALID_API_KEY')).toMatchObject({ StatusCode: '401' });
      expect(of(group, 'MISSING_AUTHENTICATION_TOKEN')).toMatchObject({ StatusCode: '404' });
      expect(of(group, 'THROTTLED')).toMatchObject({ StatusCode: '429', ResponseParameters: { 'gatewayresponse.header.Retry-After': "'1'" } });
      expect(of(group, 'QUOTA_EXCEEDED')).toMatchObject({ StatusCode: '429', ResponseParameters: { 'gatewayresponse.header.Retry-After': "'3600'" } });
      for (const type of ['DEFAULT_4XX', 'DEFAULT_5XX', 'INVALID_API_KEY']) {
        expect(of(group, type)).toMatchObject({ ResponseParameters: expect.objectContaining({ 'gatewayresponse.header.Access-Control-Allow-Origin': "'*'" }) });
      }
    }
    const body = (group: string, type: string) => (of(group, type)!.ResponseTemplates as Record<string, string>)['application/json']!;
    expect(JSON.parse(body('main', 'INVALID_API_KEY'))).toEqual({ detail: 'Missing or invalid API key' });
    expect(JSON.parse(body('reference', 'QUOTA_EXCEEDED'))).toEqual({ detail: expect.stringMatching(/quota/), retry_after_seconds: 3600 });
    expect(JSON.parse(body('extraction', 'INVALID_API_KEY'))).toEqual({
      error: 'unauthorized',
      message: 'Missing or invalid API key',
      timestamp: '$context.requestTime',
      requestId: '$context.requestId',
    });
    expect(JSON.parse(body('extraction', 'THROTTLED'))).toMatchObject({ error: 'rate_limit_exceeded', details: { retryAfterSeconds: 1 } });
    expect(body('main', 'DEFAULT_4XX')).toBe('{"detail":$context.error.messageString}');
  });

  it('puts a WAF web ACL in front of every stage that lets large bodies through and keeps API keys out of its logs', () => {
    const acls = ofType('AWS::WAFv2::WebACL');
    expect(acls).toHaveLength(2);
    const associations = ofType('AWS::WAFv2::WebACLAssociation').map(([, a]) => JSON.stringify(a.Properties));
    expect(associations).toHaveLength(3);
    for (const group of ['main', 'reference', 'extraction']) expect(associations.filter((a) => a.includes(restApiId(group)))).toHaveLength(1);
    for (const [, acl] of acls) {
      const props = acl.Properties as { Rules: { Name: string; Statement: { ManagedRuleGroupStatement?: { Name: string; RuleActionOverrides?: { Name: string; ActionToUse: unknown }[] } } }[]; VisibilityConfig: unknown };
      const common = props.Rules.find((r) => r.Statement.ManagedRuleGroupStatement?.Name === 'AWSManagedRulesCommonRuleSet')!;
      expect(common.Statement.ManagedRuleGroupStatement!.RuleActionOverrides).toContainEqual({ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } });
      expect(props.VisibilityConfig).toMatchObject({ SampledRequestsEnabled: false });
    }
    const logging = ofType('AWS::WAFv2::LoggingConfiguration');
    expect(logging).toHaveLength(2);
    for (const [, config] of logging) expect(config.Properties.RedactedFields).toEqual([{ SingleHeader: { Name: 'x-api-key' } }]);
  });

  it('refuses a body over the request limit at the WAF with 413 file_too_large in each API dialect, the limit the local gateway and the upload Lambda share', () => {
    type Rule = { Name: string; Priority: number; Action?: { Block?: { CustomResponse: { ResponseCode: number; CustomResponseBodyKey: string; ResponseHeaders: unknown } } }; Statement: { RegexMatchStatement?: { FieldToMatch: unknown; RegexString: string } } };
    const dialectOfAcl = (aclId: string) => {
      const associated = ofType('AWS::WAFv2::WebACLAssociation').filter(([, a]) => JSON.stringify(a.Properties.WebACLArn).includes(aclId)).map(([, a]) => JSON.stringify(a.Properties.ResourceArn));
      return associated.every((arn) => arn.includes(restApiId('extraction'))) ? 'extraction' : associated.some((arn) => arn.includes(restApiId('extraction'))) ? 'mixed' : 'detail';
    };
    const dialects: string[] = [];
    for (const [id, acl] of ofType('AWS::WAFv2::WebACL')) {
      const props = acl.Properties as { Rules: Rule[]; CustomResponseBodies: Record<string, { ContentType: string; Content: string }> };
      const rule = props.Rules.find((r) => r.Statement.RegexMatchStatement)!;
      // First, before the managed groups, on the Content-Length header.
      expect(rule.Priority).toBeLessThan(Math.min(...props.Rules.filter((r) => r !== rule).map((r) => r.Priority)));
      expect(rule.Statement.RegexMatchStatement!.FieldToMatch).toEqual({ SingleHeader: { Name: 'content-length' } });
      const limit = new RegExp(rule.Statement.RegexMatchStatement!.RegexString);
      expect(limit.test(String(MAX_REQUEST_BODY_BYTES))).toBe(false);
      expect(limit.test(String(MAX_REQUEST_BODY_BYTES + 1))).toBe(true);
      const response = rule.Action!.Block!.CustomResponse;
      expect(response).toMatchObject({ ResponseCode: 413, ResponseHeaders: [{ Name: 'access-control-allow-origin', Value: '*' }] });
      const body = props.CustomResponseBodies[response.CustomResponseBodyKey]!;
      expect(body.ContentType).toBe('APPLICATION_JSON');
      const dialect = dialectOfAcl(id);
      dialects.push(dialect);
      expect(JSON.parse(body.Content)).toEqual(dialect === 'extraction' ? { error: 'file_too_large', message: TOO_LARGE_MESSAGE } : { detail: expect.stringMatching(/POST \/health-score\/bulk/) });
    }
    expect(dialects.sort()).toEqual(['detail', 'extraction']);
    // What the WAF lets through, API Gateway (10 MB) passes on and one Lambda event (6 MB) carries.
    expect(MAX_REQUEST_BODY_BYTES).toBeLessThan(LAMBDA_SYNC_PAYLOAD_BYTES);
  });

  it('gives every Lambda behind API Gateway a timeout that ends at least the margin before the 29 s integration timeout', () => {
    // Walks the template, not ROUTES: a function integrated any other way would be caught too.
    const integrated = new Set(
      ofType('AWS::ApiGateway::Method')
        .filter(([, m]) => (m.Properties.Integration as { Type?: string } | undefined)?.Type === 'AWS_PROXY')
        .flatMap(([, m]) => [...JSON.stringify(m.Properties.Integration).matchAll(/"Fn::GetAtt":\["([A-Za-z0-9]+)","Arn"\]/g)].map((match) => match[1]!))
        .filter((id) => resources[id]?.Type === 'AWS::Lambda::Function'),
    );
    expect(integrated.size).toBe(ROUTES.length);
    expect(API_GATEWAY_TIMEOUT_SECONDS).toBe(29);
    expect(API_TIMEOUT_MARGIN_SECONDS).toBeGreaterThanOrEqual(1);
    // A missing Timeout (Lambda's default is 3 s, but nothing would say so) counts as too long too.
    const tooLong = [...integrated].filter((id) => !(Number(resources[id]!.Properties.Timeout) <= API_GATEWAY_TIMEOUT_SECONDS - API_TIMEOUT_MARGIN_SECONDS));
    expect(tooLong).toEqual([]);
  });

  it('serves all three APIs on the custom domain: main at the root, extraction at /extraction, reference paths unchanged', () => {
    template.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: 'api.hale.example',
      RoutingMode: 'ROUTING_RULE_THEN_BASE_PATH_MAPPING',
      SecurityPolicy: 'TLS_1_2',
    });
    const mappings = ofType('AWS::ApiGateway::BasePathMapping').map(([, m]) => m.Properties);
    expect(mappings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ RestApiId: { Ref: restApiId('main') } }),
        expect.objectContaining({ BasePath: 'extraction', RestApiId: { Ref: restApiId('extraction') } }),
      ]),
    );
    const rules = ofType('AWS::ApiGatewayV2::RoutingRule').map(([, r]) => r.Properties);
    const referenceSegments = ROUTES.filter((r) => r.rateLimitGroup === 'reference').map((r) => r.path.split('/')[1]);
    expect(rules.map((r) => (r.Conditions as { MatchBasePaths: { AnyOf: string[] } }[])[0]!.MatchBasePaths.AnyOf[0]).sort()).toEqual(referenceSegments.sort());
    for (const rule of rules) {
      expect(rule.Actions).toEqual([{ InvokeApi: { ApiId: { Ref: restApiId('reference') }, Stage: 'prod', StripBasePath: false } }]);
    }
  });
});

describe('creation order', () => {
  type Resource = { Type: string; Properties?: Record<string, unknown>; DependsOn?: string | string[] };
  const all = () => template.toJSON().Resources as Record<string, Resource>;

  /** Logical ids a value refers to: Ref, Fn::GetAtt and the ${Id} / ${Id.Attr} of Fn::Sub. */
  function references(value: unknown, found = new Set<string>()): Set<string> {
    if (Array.isArray(value)) for (const item of value) references(item, found);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'Ref' && typeof inner === 'string') found.add(inner);
        else if (key === 'Fn::GetAtt') found.add(Array.isArray(inner) ? String(inner[0]) : String(inner).split('.')[0]!);
        else if (key === 'Fn::Sub') {
          const text = Array.isArray(inner) ? inner[0] : inner;
          for (const [, id] of String(text).matchAll(/\$\{([A-Za-z0-9]+)(?:\.[A-Za-z0-9.]+)?\}/g)) found.add(id!);
          if (Array.isArray(inner)) references(inner[1], found);
        } else references(inner, found);
      }
    }
    return found;
  }

  /** Everything CloudFormation creates before `id`: DependsOn and references, transitively. */
  function createdBefore(id: string, resources: Record<string, Resource>, seen = new Set<string>()): Set<string> {
    const resource = resources[id];
    if (!resource) return seen;
    const direct = [...references(resource.Properties), ...[resource.DependsOn ?? []].flat()];
    for (const dependency of direct) {
      if (seen.has(dependency) || !resources[dependency]) continue;
      seen.add(dependency);
      createdBefore(dependency, resources, seen);
    }
    return seen;
  }

  const isRole = (r: Resource) => r.Type === 'AWS::IAM::Role';
  const isPolicy = (r: Resource) => r.Type === 'AWS::IAM::ManagedPolicy' || r.Type === 'AWS::IAM::Policy';

  /** Policies of the template attached to a role: by their Roles, or by the role's ManagedPolicyArns. */
  function policiesOf(roleId: string, resources: Record<string, Resource>): string[] {
    const byPolicy = Object.entries(resources).filter(([, r]) => isPolicy(r) && references(r.Properties?.Roles).has(roleId)).map(([id]) => id);
    const byRole = [...references(resources[roleId]!.Properties?.ManagedPolicyArns)].filter((id) => resources[id] && isPolicy(resources[id]));
    return [...byPolicy, ...byRole];
  }

  it('creates every resource that acts with a role after every policy attached to that role (functions, state machines, API methods, CDK handlers)', () => {
    const resources = all();
    const missing: string[] = [];
    const users = new Set<string>();
    for (const [id, resource] of Object.entries(resources)) {
      if (isRole(resource) || isPolicy(resource)) continue;
      const before = createdBefore(id, resources);
      for (const roleId of [...references(resource.Properties)].filter((ref) => resources[ref] && isRole(resources[ref]))) {
        users.add(id);
        for (const policy of policiesOf(roleId, resources)) if (!before.has(policy)) missing.push(`${id} (${resource.Type}) before ${policy}`);
      }
    }
    expect(missing).toEqual([]);
    // Not vacuous: every function, both machines, the widget's method and CDK's deployment handler act with a role of ours.
    const types = [...users].map((id) => resources[id]!.Type);
    expect(types.filter((t) => t === 'AWS::Lambda::Function').length).toBeGreaterThanOrEqual(ROUTES.length + FIXTURE_WORKERS.length + 1);
    expect(types.filter((t) => t === 'AWS::StepFunctions::StateMachine')).toHaveLength(3);
    expect(types).toContain('AWS::ApiGateway::Method');
  });

  it('creates every custom resource after the policies of the function that serves it', () => {
    const resources = all();
    const custom = Object.entries(resources).filter(([, r]) => r.Type.startsWith('Custom::') || r.Type === 'AWS::CloudFormation::CustomResource');
    expect(custom.length).toBeGreaterThan(0);
    for (const [id, resource] of custom) {
      const handler = [...references(resource.Properties?.ServiceToken)].find((ref) => resources[ref]?.Type === 'AWS::Lambda::Function')!;
      const roleId = [...references(resources[handler]!.Properties?.Role)][0]!;
      const before = createdBefore(id, resources);
      expect(policiesOf(roleId, resources).filter((policy) => !before.has(policy))).toEqual([]);
      expect(policiesOf(roleId, resources).length).toBeGreaterThan(0);
    }
  });
});

describe('deploying again and elsewhere', () => {
  it('gives no retained resource a fixed name, so the stack can be created again beside what a deleted one left', () => {
    const retained = Object.entries(template.toJSON().Resources as Record<string, { Type: string; DeletionPolicy?: string; Properties?: Record<string, unknown> }>).filter(
      ([, r]) => r.DeletionPolicy === 'Retain' || r.DeletionPolicy === 'RetainExceptOnCreate',
    );
    expect(retained.map(([, r]) => r.Type)).toEqual(expect.arrayContaining(['AWS::S3::Bucket', 'AWS::DynamoDB::Table', 'AWS::KMS::Key', 'AWS::SecretsManager::Secret', 'AWS::Logs::LogGroup']));
    const fixed: string[] = [];
    for (const [id, resource] of retained) {
      for (const [property, value] of Object.entries(resource.Properties ?? {})) {
        // A physical name (BucketName, LogGroupName, TableName, Name…) must be unique to this creation of the stack.
        if (property.endsWith('Name') && !JSON.stringify(value).includes('AWS::StackId')) fixed.push(`${id}.${property}`);
      }
    }
    expect(fixed).toEqual([]);
    // The two named ones: the uploads bucket (its notification needs the name first) and the WAF logs (WAF needs the prefix).
    const named = retained.filter(([, r]) => JSON.stringify(r.Properties ?? {}).includes('AWS::StackId')).map(([, r]) => r.Type);
    expect(named.sort()).toEqual(['AWS::Logs::LogGroup', 'AWS::Logs::LogGroup', 'AWS::S3::Bucket']);
  });

  describe('Comprehend Medical', () => {
    const dirs: string[] = [];
    afterAll(() => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });
    const stackIn = (region: string | undefined, phiDetector?: 'comprehend' | 'builtin') => {
      const outdir = mkdtempSync(path.join(tmpdir(), 'hale-region-'));
      dirs.push(outdir);
      const app = createApp({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
      return new HaleStack(app, 'Regional', {
        env: region ? { account: '111111111111', region } : undefined,
        routes: ROUTES.filter((r) => ['Ping', 'LabRanges', 'LabStatus'].includes(r.id)),
        workers: FIXTURE_WORKERS.filter((w) => w.id === 'LabDetectPhi'),
        stateMachines: [],
        phiDetector,
      });
    };

    it('fails synth with a clear message in a region without it, unless the built-in detector is chosen explicitly', () => {
      expect(() => stackIn('eu-central-1')).toThrow(/Region eu-central-1 has no Amazon Comprehend Medical.*-c phiDetector=builtin/);
      expect(() => stackIn('us-east-2')).not.toThrow();
      const builtin = Template.fromStack(stackIn('eu-central-1', 'builtin'));
      const phi = Object.values(builtin.findResources('AWS::Lambda::Function')).find((f) => JSON.stringify(f).includes('HALE_PHI_DETECTOR'))!;
      expect((phi.Properties as { Environment: { Variables: Record<string, string> } }).Environment.Variables.HALE_PHI_DETECTOR).toBe('builtin');
      expect(JSON.stringify(builtin.findResources('AWS::IAM::ManagedPolicy'))).not.toContain('comprehendmedical:DetectPHI');
    });

    it('makes a region-agnostic template refuse to deploy where it is missing', () => {
      type Rules = Record<string, { Assertions: { Assert: unknown; AssertDescription: string }[] }>;
      const rules = Template.fromStack(stackIn(undefined)).toJSON().Rules as Rules;
      const [assertion] = rules.ComprehendMedicalRegion!.Assertions;
      expect(assertion!.Assert).toEqual({ 'Fn::Contains': [expect.arrayContaining(['us-east-1', 'eu-west-2']), { Ref: 'AWS::Region' }] });
      expect(assertion!.AssertDescription).toMatch(/Comprehend Medical.*phiDetector=builtin/);
      expect((Template.fromStack(stackIn(undefined, 'builtin')).toJSON().Rules as Rules).ComprehendMedicalRegion).toBeUndefined();
    });
  });
});

describe('storage', () => {
  it('has the jobs table on demand, with PITR, TTL, KMS encryption and deletion protection', () => {
    const tables = ofType('AWS::DynamoDB::Table');
    expect(tables).toHaveLength(1);
    expect(tables[0]![1].Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: expect.anything() },
      DeletionProtectionEnabled: true,
      GlobalSecondaryIndexes: [
        {
          IndexName: JOBS_TABLE.openJobsIndex.name,
          KeySchema: [
            { AttributeName: 'openKind', KeyType: 'HASH' },
            { AttributeName: 'deadlineAt', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['jobId', 'status', 'expiresAt'] },
        },
      ],
    });
    expect(resources[tables[0]![0]]).toMatchObject({ DeletionPolicy: 'Retain' });
  });

  it('blocks public access, requires TLS and expires uploads and artifacts after a day', () => {
    const buckets = ofType('AWS::S3::Bucket');
    expect(buckets).toHaveLength(4);
    const policies = ofType('AWS::S3::BucketPolicy').map(([, p]) => JSON.stringify(p.Properties));
    for (const [id, bucket] of buckets) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(policies.some((p) => p.includes(`"Ref":"${id}"`) && p.includes('"aws:SecureTransport":"false"') && p.includes('"Effect":"Deny"'))).toBe(true);
      expect(bucket.Properties.BucketEncryption).toBeDefined();
    }
    for (const name of ['Uploads', 'Artifacts']) {
      const bucket = resources[logicalIdOf('AWS::S3::Bucket', `Storage${name}Bucket`)]!.Properties;
      expect(bucket).toMatchObject({
        LifecycleConfiguration: { Rules: [expect.objectContaining({ ExpirationInDays: 1, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } })] },
        LoggingConfiguration: { DestinationBucketName: { Ref: logicalIdOf('AWS::S3::Bucket', 'StorageAccessLogsBucket') } },
        BucketEncryption: { ServerSideEncryptionConfiguration: [expect.objectContaining({ ServerSideEncryptionByDefault: expect.objectContaining({ SSEAlgorithm: 'aws:kms' }) })] },
      });
      // One rule for every key (no prefix or filter): bulk inputs, parts and results under bulk/<job>/ expire too.
      const [rule] = (bucket.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;
      expect([rule!.Prefix, rule!.Filter, rule!.TagFilters]).toEqual([undefined, undefined, undefined]);
    }
  });

  it('refuses a stack name that would make the uploads bucket name longer than S3 allows', () => {
    expect(() => new HaleStack(createApp(), 'HaleWithAStackNameFarTooLong', { routes: [], workers: [], stateMachines: [] })).toThrow(
      /too long: the uploads bucket is named after it, so keep it to 18 characters/,
    );
  });

  it('lets browsers PUT to pre-signed upload URLs and notifies the upload trigger of new objects', () => {
    const uploads = resources[logicalIdOf('AWS::S3::Bucket', 'StorageUploadsBucket')]!;
    expect(uploads.Properties.CorsConfiguration).toEqual({
      CorsRules: [expect.objectContaining({ AllowedMethods: ['PUT'], AllowedOrigins: ['*'] })],
    });
    expect(uploads.Properties.NotificationConfiguration).toEqual({
      LambdaConfigurations: [
        { Event: 's3:ObjectCreated:*', Function: { 'Fn::GetAtt': [functionId('LabUploadTrigger'), 'Arn'] } },
        // Configurations of one event type may not overlap: each trigger with a prefix gets only its keys.
        {
          Event: 's3:ObjectCreated:*',
          Function: { 'Fn::GetAtt': [functionId('BulkUploadTrigger'), 'Arn'] },
          Filter: { S3Key: { Rules: [{ Name: 'prefix', Value: 'bulk/' }] } },
        },
      ],
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Principal: 's3.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [functionId('LabUploadTrigger'), 'Arn'] },
    });
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [functionId('Sweeper'), 'Arn'] }, DeadLetterConfig: Match.anyValue() })],
    });
  });
});

describe('widget', () => {
  type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };
  const widgetBucket = () => logicalIdOf('AWS::S3::Bucket', 'WidgetBucket');
  const widgetMethod = () => {
    const file = ofType('AWS::ApiGateway::Resource').find(([, r]) => r.Properties.PathPart === '{file}')!;
    const v1 = resources[(file[1].Properties.ParentId as { Ref: string }).Ref]!;
    const widget = resources[(v1.Properties.ParentId as { Ref: string }).Ref]!;
    expect([widget.Properties.PathPart, v1.Properties.PathPart]).toEqual(['widget', 'v1']);
    return ofType('AWS::ApiGateway::Method').find(([, m]) => (m.Properties.ResourceId as { Ref: string }).Ref === file[0])![1].Properties;
  };
  const statementsOfRole = (roleLogicalId: string): Statement[] =>
    ofType('AWS::IAM::ManagedPolicy')
      .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleLogicalId))
      .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
  const objectArn = (file: string) => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [widgetBucket(), 'Arn'] }, `/v1/${file}`]] });
  const deployments = () => ofType('Custom::CDKBucketDeployment').map(([, d]) => d.Properties as { Include: string[]; SystemMetadata: Record<string, string>; SourceObjectKeys: string[]; DestinationBucketKeyPrefix: string; DestinationBucketName: unknown });

  it('serves GET /widget/v1/{file} on the main API without an API key, straight from S3 GetObject', () => {
    const method = widgetMethod();
    expect(method).toMatchObject({
      HttpMethod: 'GET',
      ApiKeyRequired: false,
      AuthorizationType: 'NONE',
      RestApiId: { Ref: restApiId('main') },
      RequestParameters: { 'method.request.path.file': true },
      Integration: {
        Type: 'AWS',
        IntegrationHttpMethod: 'GET',
        RequestParameters: { 'integration.request.path.file': 'method.request.path.file' },
      },
    });
    const uri = JSON.stringify((method.Integration as { Uri: unknown }).Uri);
    expect(uri).toContain(':s3:path/');
    expect(uri).toContain(`{"Ref":"${widgetBucket()}"},"/v1/{file}"`);
    const responses = (method.Integration as { IntegrationResponses: { StatusCode: string; SelectionPattern?: string; ResponseParameters: Record<string, string> }[] }).IntegrationResponses;
    // Content-Type and Cache-Control are each object's S3 metadata (asserted on the deployments below).
    expect(responses.find((r) => r.StatusCode === '200')).toMatchObject({
      ResponseParameters: {
        'method.response.header.Content-Type': 'integration.response.header.Content-Type',
        'method.response.header.Cache-Control': 'integration.response.header.Cache-Control',
        'method.response.header.Access-Control-Allow-Origin': "'*'",
        'method.response.header.X-Content-Type-Options': "'nosniff'",
      },
    });
    expect(responses.find((r) => r.StatusCode === '200')!.SelectionPattern).toBeUndefined();
    // S3 answers 403 for a missing key when the role may not list the bucket.
    const notFound = responses.find((r) => r.StatusCode === '404')!;
    expect(new RegExp(`^${notFound.SelectionPattern}$`).test('403')).toBe(true);
  });

  it('reads with a role that may get exactly the widget files and decrypt them through S3, nothing else', () => {
    const roleId = ((widgetMethod().Integration as { Credentials: { 'Fn::GetAtt': [string] } }).Credentials)['Fn::GetAtt'][0];
    expect(resources[roleId]!.Properties.AssumeRolePolicyDocument).toMatchObject({ Statement: [expect.objectContaining({ Principal: { Service: 'apigateway.amazonaws.com' } })] });
    const statements = statementsOfRole(roleId);
    expect(actionsOf(statements).sort()).toEqual(['kms:Decrypt', 's3:GetObject']);
    const get = statements.find((s) => s.Action === 's3:GetObject')!;
    expect(get.Resource).toEqual(expect.arrayContaining(['hale-widget.js', 'chart.umd.js', 'integrity.json'].map(objectArn)));
    expect(JSON.stringify(get.Resource)).not.toContain('*');
    expect(statements.find((s) => s.Action === 'kms:Decrypt')!.Condition).toEqual({ StringEquals: { 'kms:ViaService': expect.anything() } });
  });

  it('keeps the files in a private, KMS-encrypted, TLS-only, versioned bucket with access logs', () => {
    const bucket = resources[widgetBucket()]!.Properties;
    expect(bucket).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [expect.objectContaining({ ServerSideEncryptionByDefault: expect.objectContaining({ SSEAlgorithm: 'aws:kms' }) })] },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      VersioningConfiguration: { Status: 'Enabled' },
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalIdOf('AWS::S3::Bucket', 'StorageAccessLogsBucket') } },
    });
    const policy = ofType('AWS::S3::BucketPolicy').find(([, p]) => JSON.stringify(p.Properties.Bucket) === `{"Ref":"${widgetBucket()}"}`)![1];
    const statements = (policy.Properties.PolicyDocument as { Statement: { Effect: string; Condition?: unknown; Principal?: unknown }[] }).Statement;
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    // Nothing in the bucket policy grants access: only the read role can get the files.
    expect(statements.filter((s) => s.Effect === 'Allow')).toEqual([]);
  });

  it('deploys the widget built during synth, each file with its Content-Type and a year-long immutable Cache-Control', () => {
    const all = deployments();
    expect(all.length).toBeGreaterThan(0);
    const metadataOf = (file: string) => all.find((d) => d.Include.includes(file))?.SystemMetadata;
    expect(metadataOf('hale-widget.js')).toEqual({ 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(metadataOf('chart.umd.js')).toMatchObject({ 'content-type': 'application/javascript; charset=utf-8' });
    expect(metadataOf('integrity.json')).toEqual({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' });
    for (const deployment of all) {
      expect(deployment).toMatchObject({ DestinationBucketName: { Ref: widgetBucket() }, DestinationBucketKeyPrefix: 'v1/', SourceObjectKeys: [all[0]!.SourceObjectKeys[0]] });
    }

    // The staged asset is the build itself: the widget script, Chart.js, and SRI hashes that match them.
    const assetDir = path.join(outdir, `asset.${all[0]!.SourceObjectKeys[0]!.replace(/\.zip$/, '')}`);
    const script = readFileSync(path.join(assetDir, 'hale-widget.js'));
    expect(script.toString('utf8')).toContain('HaleWidget');
    const chart = readFileSync(path.join(assetDir, 'chart.umd.js'));
    expect(chart.toString('utf8')).toContain('Chart');
    const integrity = JSON.parse(readFileSync(path.join(assetDir, 'integrity.json'), 'utf8')) as Record<string, string>;
    const sri = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
    expect(integrity).toMatchObject({ 'hale-widget.js': sri(script), 'chart.umd.js': sri(chart) });
    // Every deployed file is readable through the API, and nothing else is deployed.
    expect(all.flatMap((d) => d.Include).sort()).toEqual(readdirSync(assetDir).sort());
  });

  it("runs CDK's deployment handler under a role of ours with no wildcard and no inline policy", () => {
    const handler = ofType('AWS::Lambda::Function').find(([id]) => id.startsWith(DEPLOYMENT_HANDLER))![1];
    const roleId = (handler.Properties.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    expect(resources[roleId]!.Properties.ManagedPolicyArns).toBeUndefined();
    const statements = statementsOfRole(roleId);
    expect(actionsOf(statements).sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey', 'logs:CreateLogStream', 'logs:PutLogEvents', 's3:DeleteObject', 's3:GetObject', 's3:ListBucket', 's3:PutObject']);
    expect(statements.find((s) => JSON.stringify(s.Action).includes('s3:PutObject'))!.Resource).toEqual(expect.arrayContaining(['hale-widget.js', 'integrity.json'].map(objectArn)));
    // The asset zip by its own key, the widget files by name: no wildcard anywhere.
    expect(JSON.stringify(statements.map((s) => s.Resource))).not.toContain('*');
  });
});

describe('state machines', () => {
  it('loads every ASL file and substitutes every placeholder with its worker ARN', () => {
    const machines = ofType('AWS::StepFunctions::StateMachine');
    expect(machines).toHaveLength(3);
    const lab = machines.find(([, m]) => m.Properties.StateMachineName === 'HaleTest-lab-extraction')![1].Properties;
    expect(lab.DefinitionSubstitutions).toEqual({
      ValidateFunctionArn: { 'Fn::GetAtt': [functionId('LabValidate'), 'Arn'] },
      DetectPhiFunctionArn: { 'Fn::GetAtt': [functionId('LabDetectPhi'), 'Arn'] },
    });
    expect(lab.DefinitionString).toBe(readFileSync(FIXTURE_ASL['lab-extraction'], 'utf8'));
    const report = machines.find(([, m]) => m.Properties.StateMachineName === 'HaleTest-report-generation')![1].Properties;
    expect(report.DefinitionSubstitutions).toEqual({ RenderFunctionArn: { 'Fn::GetAtt': [functionId('ReportRender'), 'Arn'] } });
    for (const [, machine] of machines) {
      expect(machine.Properties).toMatchObject({
        StateMachineType: 'STANDARD',
        TracingConfiguration: { Enabled: true },
        LoggingConfiguration: { Level: 'ERROR', IncludeExecutionData: false },
      });
    }
  });

  it('lets each machine invoke exactly its task functions', () => {
    const machines = ofType('AWS::StepFunctions::StateMachine');
    const lab = machines.find(([, m]) => m.Properties.StateMachineName === 'HaleTest-lab-extraction')!;
    const roleId = (lab[1].Properties.RoleArn as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    const statements = ofType('AWS::IAM::ManagedPolicy')
      .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleId))
      .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement);
    const invoke = statements.find((s) => s.Action === 'lambda:InvokeFunction')!;
    expect(invoke.Resource).toEqual([
      { 'Fn::GetAtt': [functionId('LabValidate'), 'Arn'] },
      { 'Fn::GetAtt': [functionId('LabDetectPhi'), 'Arn'] },
    ]);
    expect(statements.some((s) => JSON.stringify(s.Action).includes('s3:') || s.Action === 'states:StartExecution')).toBe(false);
  });

  it('lets a machine with a Distributed Map start and manage its own child executions, read its items and write its results', () => {
    const statements = machineStatements('HaleTest-bulk-scoring');
    const start = statements.find((s) => s.Action === 'states:StartExecution')!;
    expect(JSON.stringify(start.Resource)).toMatch(/:stateMachine:HaleTest-bulk-scoring"/);
    const children = statements.find((s) => JSON.stringify(s.Action) === JSON.stringify(['states:DescribeExecution', 'states:StopExecution']))!;
    expect(JSON.stringify(children.Resource)).toMatch(/:execution:HaleTest-bulk-scoring\/\*"/);
    const read = statements.find((s) => s.Action === 's3:GetObject')!;
    expect(JSON.stringify(read.Resource)).toMatch(/uploads-.*\/\*"/);
    const write = statements.find((s) => JSON.stringify(s.Action).includes('s3:PutObject'))!;
    expect(write.Action).toEqual(['s3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts']);
    expect(JSON.stringify(write.Resource)).toContain(logicalIdOf('AWS::S3::Bucket', 'StorageArtifactsBucket'));
  });
});

function machineStatements(name: string): { Action: unknown; Resource: unknown }[] {
  const machine = ofType('AWS::StepFunctions::StateMachine').find(([, m]) => m.Properties.StateMachineName === name)!;
  const roleId = (machine[1].Properties.RoleArn as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
  return ofType('AWS::IAM::ManagedPolicy')
    .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleId))
    .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement);
}

describe('observability', () => {
  const alarms = () => ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);

  it('alarms on errors, throttles and p99 duration of every function', () => {
    for (const id of [...ROUTES.map((r) => r.id), ...FIXTURE_WORKERS.map((w) => w.id)]) {
      const ofFunction = alarms().filter((a) => JSON.stringify(a.Dimensions ?? []).includes(`"Ref":"${functionId(id)}"`));
      expect(ofFunction.map((a) => a.MetricName).sort()).toEqual(['Duration', 'Errors', 'Throttles']);
      const duration = ofFunction.find((a) => a.MetricName === 'Duration')!;
      const timeout = resources[functionId(id)]!.Properties.Timeout as number;
      expect(duration).toMatchObject({ ExtendedStatistic: 'p99', Threshold: timeout * 1000 * 0.9 });
    }
  });

  it('alarms on failed and timed-out executions of every state machine, and on webhook delivery failures', () => {
    for (const [id] of ofType('AWS::StepFunctions::StateMachine')) {
      const ofMachine = alarms().filter((a) => JSON.stringify(a.Dimensions ?? []).includes(`"Ref":"${id}"`));
      expect(ofMachine.map((a) => a.MetricName).sort()).toEqual(['ExecutionsFailed', 'ExecutionsTimedOut']);
    }
    // The metrics the delivery workers emit once, when a delivery has finally failed.
    for (const metric of Object.values(DELIVERY_FAILED_METRICS)) {
      expect(alarms()).toContainEqual(expect.objectContaining({ Namespace: 'Hale', MetricName: metric, Dimensions: [{ Name: 'service', Value: 'hale' }], Threshold: 1 }));
    }
  });

  it('alarms on throttled requests of the jobs table and on account concurrency nearing its quota', () => {
    const throttled = alarms().find((a) => JSON.stringify(a.Metrics ?? []).includes('ThrottledRequests'))!;
    const operations = JSON.stringify(throttled.Metrics).match(/"Name":"Operation","Value":"(\w+)"/g)!.map((m) => m.split('"').at(-2));
    expect(operations.sort()).toEqual(['DeleteItem', 'GetItem', 'PutItem', 'Query', 'TransactWriteItems', 'UpdateItem']);
    expect(JSON.stringify(throttled.Metrics)).toContain(`{"Ref":"${logicalIdOf('AWS::DynamoDB::Table', 'StorageJobsTable')}"}`);
    expect(alarms()).toContainEqual(
      expect.objectContaining({ Namespace: 'AWS/Lambda', MetricName: 'ClaimedAccountConcurrency', Statistic: 'Maximum', Threshold: 800, Period: 60 }),
    );
  });

  it('explains every alarm in infra/README.md', () => {
    const readme = readFileSync(path.join(__dirname, '../../infra/README.md'), 'utf8');
    const kinds = new Set(
      alarms().map((a) => String(a.MetricName ?? (JSON.stringify(a.Metrics).includes('ThrottledRequests') ? 'ThrottledRequests' : 'expression'))),
    );
    for (const kind of kinds) expect({ kind, explained: readme.includes(`\`${kind}\``) }).toEqual({ kind, explained: true });
  });

  it('alarms on 4xx and 5xx rates and p99 latency of each API', () => {
    for (const group of ['main', 'reference', 'extraction']) {
      const ofApi = alarms().filter((a) => a.Namespace === 'AWS/ApiGateway' && JSON.stringify(a.Dimensions).includes(`"HaleTest-${group}"`));
      expect(ofApi.map((a) => a.MetricName).sort()).toEqual(['4XXError', '5XXError', 'Latency']);
    }
  });

  it('notifies one encrypted topic, says what to do, and treats missing data as healthy', () => {
    const topics = ofType('AWS::SNS::Topic');
    expect(topics).toHaveLength(1);
    expect(topics[0]![1].Properties.KmsMasterKeyId).toBeDefined();
    for (const alarm of alarms()) {
      expect(alarm).toMatchObject({
        TreatMissingData: 'notBreaching',
        AlarmActions: [{ Ref: topics[0]![0] }],
        AlarmDescription: expect.stringMatching(/\. [A-Z].+/),
      });
    }
    expect(ofType('AWS::CloudWatch::Dashboard')).toHaveLength(1);
  });
});

describe('state machine files', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  // One route per API (an API without methods is invalid) and the one worker the machine needs.
  const fewRoutes = ROUTES.filter((r) => ['Ping', 'LabRanges', 'LabStatus'].includes(r.id));
  const synthWith = (aslFile: string | undefined) => {
    const outdir = mkdtempSync(path.join(tmpdir(), 'hale-asl-'));
    dirs.push(outdir);
    // These cases are about the ASL, not the code: skip bundling.
    const app = createApp({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new HaleStack(app, 'AslOnly', {
      routes: fewRoutes,
      workers: FIXTURE_WORKERS.filter((w) => w.id === 'ReportRender'),
      stateMachines: [{ name: 'report-generation', aslFile: 'statemachines/does-not-exist.asl.json', arnSetting: 'HALE_REPORT_STATE_MACHINE_ARN' }],
      aslFiles: aslFile ? { 'report-generation': aslFile } : {},
    });
    return { app, stack };
  };

  it('fails synth with a clear message when a placeholder has no worker', () => {
    expect(() => synthWith(path.join(__dirname, 'fixtures/unknown-placeholder.asl.json'))).toThrow(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the ASL placeholder, quoted literally
      "State machine report-generation uses ${NobodyDeclaresThisArn} but no worker in WORKERS (functions/workers.ts) has aslPlaceholder 'NobodyDeclaresThisArn'",
    );
  });

  it('fails synth when the ASL sets no TimeoutSeconds', () => {
    expect(() => synthWith(path.join(__dirname, 'fixtures/no-timeout.asl.json'))).toThrow(/must set a top-level TimeoutSeconds/);
  });

  it('creates no machine, with a warning, while the ASL file does not exist', () => {
    const { stack } = synthWith(undefined);
    Template.fromStack(stack).resourceCountIs('AWS::StepFunctions::StateMachine', 0);
    Annotations.fromStack(stack).hasWarning('/AslOnly/StateMachines', Match.stringLikeRegexp('does-not-exist.asl.json does not exist yet'));
  });
});
