import { Aws, CfnRule, Fn, type Stack, Token } from 'aws-cdk-lib';
import type { HaleConfig } from '../functions/platform/config';

/** Which PHI detector the lab pipeline's PHI step uses (HALE_PHI_DETECTOR): Amazon Comprehend Medical, or the built-in Safe Harbor detector. */
export type PhiDetectorChoice = HaleConfig['HALE_PHI_DETECTOR'];

/**
 * Regions with an Amazon Comprehend Medical endpoint (AWS General Reference, "Amazon Comprehend
 * Medical endpoints and quotas"). Elsewhere every DetectPHI call fails, and with it every lab job at
 * its PHI step.
 */
export const COMPREHEND_MEDICAL_REGIONS = ['us-east-1', 'us-east-2', 'us-west-2', 'ca-central-1', 'eu-west-1', 'eu-west-2', 'ap-southeast-2', 'us-gov-west-1'] as const;

const CHOOSE_BUILTIN = 'choose the built-in detector explicitly with `-c phiDetector=builtin` (infra/README.md, "PHI detection")';

/**
 * Stops a stack that would call Comprehend Medical where it does not exist: synth fails with a message
 * when the region is known, and a template rule fails the deploy when the template is region-agnostic.
 */
export function requirePhiDetectorInRegion(stack: Stack, choice: PhiDetectorChoice): void {
  if (choice === 'builtin') return;
  const regions = [...COMPREHEND_MEDICAL_REGIONS];
  if (!Token.isUnresolved(stack.region)) {
    if (!regions.includes(stack.region as (typeof COMPREHEND_MEDICAL_REGIONS)[number])) {
      throw new Error(
        `Region ${stack.region} has no Amazon Comprehend Medical, which the lab pipeline's PHI step calls: deploy to one of ${regions.join(', ')}, or ${CHOOSE_BUILTIN}`,
      );
    }
    return;
  }
  new CfnRule(stack, 'ComprehendMedicalRegion', {
    assertions: [
      {
        assert: Fn.conditionContains(regions, Aws.REGION),
        assertDescription: `This region has no Amazon Comprehend Medical, which the lab pipeline's PHI step calls: deploy to one of ${regions.join(', ')}, or synthesise with -c phiDetector=builtin`,
      },
    ],
  });
}
