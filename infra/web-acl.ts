import { ArnFormat, Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/**
 * A web ACL in front of the three API stages with AWS's managed baseline (common exploits, known bad
 * inputs). Two rules only count instead of blocking: SizeRestrictions_BODY would block every body over
 * 8 KB, which lab uploads (base64 PDFs) and report requests exceed by design, and NoUserAgent_HEADER
 * would block server-to-server clients whose HTTP library sends none. Sampled requests are off and
 * the logs redact `x-api-key`: both would otherwise keep the callers' keys. WAF never logs bodies.
 */
const COUNT_ONLY: Record<string, readonly string[]> = {
  AWSManagedRulesCommonRuleSet: ['SizeRestrictions_BODY', 'NoUserAgent_HEADER'],
  AWSManagedRulesKnownBadInputsRuleSet: [],
};

export class WebAcl extends Construct {
  readonly acl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: { stages: readonly apigw.Stage[]; key: kms.IKey }) {
    super(scope, id);
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: false });
    this.acl = new wafv2.CfnWebACL(this, 'Acl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('hale-web-acl'),
      rules: Object.entries(COUNT_ONLY).map(([name, countOnly], index) => ({
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
    });
    const stack = Stack.of(this);
    // WAF only delivers to log groups whose name starts with aws-waf-logs-.
    const logGroupName = `aws-waf-logs-${stack.stackName}`;
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
