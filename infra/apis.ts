import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { ErrorDialect } from '../functions/http/dialects';
import { DEMO_LIMITS, REFERENCE_LIMITS, type RouteDefinition } from '../functions/routes';
import { addGatewayResponses } from './gateway-responses';
import { acknowledge } from './nag';
import { WebAcl } from './web-acl';

/**
 * Three REST APIs. `extraction` carries the other error dialect (gateway responses are API-wide).
 * `reference` exists because a usage plan's quota counts every request a key makes to every stage in
 * the plan: the 1,000-per-day limit of the reference group (spec §8) can only be scoped to those four
 * routes by giving them a stage of their own. A key is added to both plans (see infra/README.md).
 */
export type ApiGroup = 'main' | 'reference' | 'extraction';

export function apiGroupOf(route: RouteDefinition): ApiGroup {
  if (route.api === 'extraction') return 'extraction';
  return route.rateLimitGroup === 'reference' ? 'reference' : 'main';
}

/** Extraction routes are served under base path `extraction`, so their API sees the rest of the path. */
export const EXTRACTION_BASE_PATH = 'extraction';

/** The resource path inside the route's API (API Gateway matches `/lab-ranges/` to `/lab-ranges`). */
export function resourcePathOf(route: RouteDefinition): string {
  const inApi = apiGroupOf(route) === 'extraction' ? route.path.replace(new RegExp(`^/${EXTRACTION_BASE_PATH}(?=/)`), '') : route.path;
  return inApi.length > 1 ? inApi.replace(/\/$/, '') : inApi;
}

/** The longest route timeout on each API (seconds), given the default for routes that name none. */
export function longestTimeoutPerApi(routes: readonly RouteDefinition[], defaultSeconds: number): Record<ApiGroup, number> {
  const longest: Record<ApiGroup, number> = { main: 0, reference: 0, extraction: 0 };
  for (const route of routes) {
    const group = apiGroupOf(route);
    longest[group] = Math.max(longest[group], route.timeoutSeconds ?? defaultSeconds);
  }
  return longest;
}

const DIALECTS: Record<ApiGroup, ErrorDialect> = { main: 'detail', reference: 'detail', extraction: 'extraction' };

/**
 * Stage-wide ceilings across all keys, a guard against runaway clients and cost, well above what one
 * key may use; per-key limits live in the usage plans.
 */
const STAGE_THROTTLE = { rateLimit: 200, burstLimit: 400 } as const;
export const STAGE_NAME = 'prod';

/** Every method's logging: request and response bodies may hold PHI, so they are never logged. */
const METHOD_LOGGING = { dataTraceEnabled: false, loggingLevel: apigw.MethodLoggingLevel.ERROR, metricsEnabled: true } as const;

/**
 * The anonymous demo route (rateLimitGroup `demo`) has no key, so no usage plan can limit it: its
 * method's own throttling on the stage does, one bucket for all its callers, so visitors of the demo
 * page neither spend a customer's quota nor share the stage's ceiling with customers beyond it.
 */
function demoThrottling(routes: readonly RouteDefinition[]): Record<string, apigw.MethodDeploymentOptions> {
  return Object.fromEntries(
    routes
      .filter((route) => route.rateLimitGroup === 'demo')
      .map((route) => [`${resourcePathOf(route)}/${route.method}`, { ...METHOD_LOGGING, throttlingRateLimit: DEMO_LIMITS.requestsPerSecond, throttlingBurstLimit: DEMO_LIMITS.burst }]),
  );
}

export interface ApisProps {
  routes: readonly RouteDefinition[];
  functionFor: (routeId: string) => lambda.IFunction;
  key: kms.IKey;
}

export class Apis extends Construct {
  readonly apis: Record<ApiGroup, apigw.RestApi>;
  readonly referencePlan: apigw.UsagePlan;
  readonly standardPlan: apigw.UsagePlan;

  constructor(scope: Construct, id: string, props: ApisProps) {
    super(scope, id);
    const main = this.restApi('main', props.key, true, props.routes);
    this.apis = {
      main,
      reference: this.restApi('reference', props.key, false, props.routes),
      extraction: this.restApi('extraction', props.key, false, props.routes),
    };
    for (const group of ['reference', 'extraction'] as const) {
      // The account-wide CloudWatch role (created with the main API) must exist before a stage logs.
      const account = main.node.findChild('Account');
      this.apis[group].deploymentStage.node.addDependency(account);
    }
    acknowledge(main, [
      ['AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]', "API Gateway's account-wide logging role: AWS's managed policy is the documented one and tracks the log actions API Gateway needs."],
    ]);

    for (const route of props.routes) {
      const api = this.apis[apiGroupOf(route)];
      api.root.resourceForPath(resourcePathOf(route)).addMethod(route.method, new apigw.LambdaIntegration(props.functionFor(route.id), { allowTestInvoke: false }), {
        apiKeyRequired: !route.anonymous,
        operationName: route.id,
      });
    }

    // One web ACL per error dialect: the WAF's own 413 is a static body, written in the APIs' dialect.
    for (const dialect of ['detail', 'extraction'] as const) {
      const groups = (Object.keys(DIALECTS) as ApiGroup[]).filter((group) => DIALECTS[group] === dialect);
      new WebAcl(this, dialect === 'detail' ? 'WebAcl' : 'ExtractionWebAcl', { stages: groups.map((group) => this.apis[group].deploymentStage), key: props.key, dialect });
    }

    this.standardPlan = new apigw.UsagePlan(this, 'StandardPlan', {
      name: `${Stack.of(this).stackName}-standard`,
      description: 'Scoring, reports and lab extraction (per-key limits are enforced by the handlers where the spec sets them)',
      apiStages: [main, this.apis.extraction].map((api) => ({ api, stage: api.deploymentStage })),
    });
    this.referencePlan = new apigw.UsagePlan(this, 'ReferencePlan', {
      name: `${Stack.of(this).stackName}-reference`,
      description: 'Reference data group (spec §8): 50 requests per second and 1,000 per day per key',
      apiStages: [{ api: this.apis.reference, stage: this.apis.reference.deploymentStage }],
      throttle: { rateLimit: REFERENCE_LIMITS.requestsPerSecond, burstLimit: REFERENCE_LIMITS.burst },
      quota: { limit: REFERENCE_LIMITS.requestsPerDay, period: apigw.Period.DAY },
    });
  }

  private restApi(group: ApiGroup, key: kms.IKey, ownsCloudWatchRole: boolean, routes: readonly RouteDefinition[]): apigw.RestApi {
    const accessLogs = new logs.LogGroup(this, `${group}-access-logs`, { retention: logs.RetentionDays.THREE_MONTHS, encryptionKey: key });
    const api = new apigw.RestApi(this, group, {
      // Named per stack: API Gateway metrics (and so the alarms) are keyed by API name.
      restApiName: `${Stack.of(this).stackName}-${group}`,
      description: `Hale ${group} API`,
      endpointConfiguration: { types: [apigw.EndpointType.REGIONAL] },
      apiKeySourceType: apigw.ApiKeySourceType.HEADER,
      cloudWatchRole: ownsCloudWatchRole,
      ...(ownsCloudWatchRole ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
      deployOptions: {
        stageName: STAGE_NAME,
        tracingEnabled: true,
        ...METHOD_LOGGING,
        throttlingRateLimit: STAGE_THROTTLE.rateLimit,
        throttlingBurstLimit: STAGE_THROTTLE.burstLimit,
        methodOptions: demoThrottling(routes.filter((route) => apiGroupOf(route) === group)),
        accessLogDestination: new apigw.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigw.AccessLogFormat.custom(
          JSON.stringify({
            requestId: apigw.AccessLogField.contextRequestId(),
            requestTime: apigw.AccessLogField.contextRequestTimeEpoch(),
            httpMethod: apigw.AccessLogField.contextHttpMethod(),
            resourcePath: apigw.AccessLogField.contextResourcePath(),
            status: apigw.AccessLogField.contextStatus(),
            responseLength: apigw.AccessLogField.contextResponseLength(),
            responseLatency: apigw.AccessLogField.contextResponseLatency(),
            integrationLatency: apigw.AccessLogField.contextIntegrationLatency(),
            apiKeyId: apigw.AccessLogField.contextIdentityApiKeyId(),
            sourceIp: apigw.AccessLogField.contextIdentitySourceIp(),
            errorType: apigw.AccessLogField.contextErrorResponseType(),
          }),
        ),
      },
    });
    addGatewayResponses(api, DIALECTS[group]);
    acknowledge(api, [
      ['AwsSolutions-APIG2', 'Requests are validated by the zod schemas in each handler, the single source of validation and of the OpenAPI document; a second, partial validator in API Gateway would answer in neither error dialect.'],
      ['AwsSolutions-APIG4', 'Callers are authenticated with API keys (spec §5) mapped to usage plans; Hale has no end-user identities for an IAM, Cognito or Lambda authorizer to check.'],
      ['AwsSolutions-COG4', 'Callers are authenticated with API keys (spec §5) mapped to usage plans; Hale has no end-user identities for a Cognito user pool.'],
      ['HIPAA.Security-APIGWSSLEnabled', 'A stage client certificate authenticates API Gateway to an HTTP backend; every integration here is a Lambda proxy invoked through IAM.'],
      ['HIPAA.Security-APIGWCacheEnabledAndEncrypted', 'Caching is off on purpose: responses are per key and may hold PHI, so they must not be kept in a shared cache.'],
    ]);
    return api;
  }
}
