import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/routes';
import { type ApiGroup, apiGroupOf, EXTRACTION_BASE_PATH, STAGE_NAME } from './apis';

export interface CustomDomainProps {
  domainName: string;
  certificateArn: string;
  apis: Record<ApiGroup, apigw.RestApi>;
  routes: readonly RouteDefinition[];
}

/**
 * One hostname for the three APIs: the main API at the root, the extraction API at base path
 * `extraction` (its resources omit that prefix), and the reference API through routing rules that
 * match the first path segment of each reference route and keep the path (StripBasePath false), so
 * callers see exactly the paths of the spec. Rules are evaluated before base path mappings.
 */
export class CustomDomain extends Construct {
  readonly domain: apigw.DomainName;

  constructor(scope: Construct, id: string, props: CustomDomainProps) {
    super(scope, id);
    this.domain = new apigw.DomainName(this, 'Domain', {
      domainName: props.domainName,
      certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
      endpointType: apigw.EndpointType.REGIONAL,
      securityPolicy: apigw.SecurityPolicy.TLS_1_2,
      mapping: props.apis.main,
    });
    this.domain.addBasePathMapping(props.apis.extraction, { basePath: EXTRACTION_BASE_PATH });
    const cfnDomain = this.domain.node.defaultChild as apigw.CfnDomainName;
    cfnDomain.routingMode = 'ROUTING_RULE_THEN_BASE_PATH_MAPPING';

    const referenceSegments = [
      ...new Set(props.routes.filter((r) => apiGroupOf(r) === 'reference').map((r) => r.path.split('/').filter(Boolean)[0]!)),
    ];
    referenceSegments.forEach((segment, index) => {
      const rule = new apigwv2.CfnRoutingRule(this, `Reference-${segment}`, {
        domainNameArn: cfnDomain.attrDomainNameArn,
        priority: index + 1,
        conditions: [{ matchBasePaths: { anyOf: [segment] } }],
        actions: [{ invokeApi: { apiId: props.apis.reference.restApiId, stage: STAGE_NAME, stripBasePath: false } }],
      });
      rule.node.addDependency(props.apis.reference.deploymentStage);
    });
  }
}
