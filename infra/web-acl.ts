import { ArnFormat, Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { ErrorDialect } from '../functions/http/dialects';
import { GATEWAY_ERROR_HEADERS } from '../functions/http/gateway-errors';
import { bodyTooLargeMessage, MAX_REQUEST_BODY_BYTES } from '../functions/http/request-limits';
import { integerGreaterThan } from './content-length-rule';
import { stackInstanceId } from './stack-instance';

/**
 * A web ACL in front of API stages of one error dialect (two in all: main and reference, extraction),
 * with the request body limit and AWS's managed baseline (common exploits, known bad
 * inputs). Two rules only count instead of blocking: SizeRestrictions_BODY would block every body over
 * 8 KB, which lab uploads (base64 PDFs) and report requests exceed by design, and NoUserAgent_HEADER
 * would block server-to-server clients whose HTTP library sends none. Sampled requests are off and
 * the logs redact `x-api-key`: both would otherwise keep the callers' keys. WAF never logs bodies.
 */
const COUNT_ONLY: Record<string, readonly string[]> = {
  AWSManagedRulesCommonRuleSet: ['SizeRestrictions_BODY', 'NoUserAgent_HEADER'],
  AWSManagedRulesKnownBadInputsRuleSet: [],
};

const BODY_TOO_LARGE = 'body-too-large';

/** The WAF's 413 in the dialect of the APIs behind it (static: a WAF custom response has no request id or time). */
function bodyTooLargeResponse(dialect: ErrorDialect): Record<string, unknown> {
  return dialect === 'extraction' ? { error: 'file_too_large', message: bodyTooLargeMessage(dialect) } : { detail: bodyTooLargeMessage(dialect) };
}

export interface WebAclProps {
  stages: readonly apigw.Stage[];
  key: kms.IKey;
  /** The error dialect of those stages' APIs, for the WAF's own 413. */
  dialect: ErrorDialect;
}

/**
 * First rule, before the managed groups: a request whose Content-Length exceeds MAX_REQUEST_BODY_BYTES
 * (functions/http/request-limits.ts) is answered 413 `file_too_large` here, as the local gateway does.
 * API Gateway itself takes up to 10 MB, but hands the body to Lambda in one event that may carry only
 * 6 MB: without this rule such a request would end in a 502. WAF reads only the first 16 KB of a body,
 * so it is the header that is compared.
 */
function bodyTooLargeRule(visibility: (metricName: string) => wafv2.CfnWebACL.VisibilityConfigProperty): wafv2.CfnWebACL.RuleProperty {
  return {
    name: 'RequestBodyTooLarge',
    priority: 0,
    action: {
      block: {
        customResponse: {
          responseCode: 413,
          customResponseBodyKey: BODY_TOO_LARGE,
          responseHeaders: Object.entries(GATEWAY_ERROR_HEADERS).map(([name, value]) => ({ name, value })),
        },
      },
    },
    statement: {
      regexMatchStatement: {
        fieldToMatch: { singleHeader: { Name: 'content-length' } },
        regexString: integerGreaterThan(MAX_REQUEST_BODY_BYTES),
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    },
    visibilityConfig: visibility('RequestBodyTooLarge'),
  };
}

export class WebAcl extends Construct {
  readonly acl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: WebAclProps) {
    super(scope, id);
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: false });
    this.acl = new wafv2.CfnWebACL(this, 'Acl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`hale-web-acl-${props.dialect}`),
      customResponseBodies: { [BODY_TOO_LARGE]: { contentType: 'APPLICATION_JSON', content: JSON.stringify(bodyTooLargeResponse(props.dialect)) } },
      rules: [
        bodyTooLargeRule(visibility),
        ...Object.entries(COUNT_ONLY).map(([name, countOnly], index) => ({
          name,
          priority: index + 1,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name,
              ruleActionOverrides: countOnly.map((rule) => ({ name: rule, actionToUse: { count: {} } })),
            },
          },
          visibilityConfig: visibility(name),
        })),
      ],
    });
    const stack = Stack.of(this);
    // WAF only delivers to log groups whose name starts with aws-waf-logs-. The group is retained with
    // the stack's other logs, so its name is unique to this creation of the stack (stack-instance.ts).
    const logGroupName = `aws-waf-logs-${stack.stackName}-${props.dialect}-${stackInstanceId()}`;
    const logGroup = new logs.LogGroup(this, 'Logs', { logGroupName, retention: logs.RetentionDays.THREE_MONTHS, encryptionKey: props.key });
    const logging = new wafv2.CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.acl.attrArn,
      logDestinationConfigs: [stack.formatArn({ service: 'logs', resource: 'log-group', resourceName: logGroupName, arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
      redactedFields: [{ singleHeader: { Name: 'x-api-key' } }],
    });
    logging.node.addDependency(logGroup);
    props.stages.forEach((stage, index) => {
      new wafv2.CfnWebACLAssociation(this, `Association${index}`, { resourceArn: stage.stageArn, webAclArn: this.acl.attrArn });
    });
  }
}
