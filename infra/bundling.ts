import type { BuildOptions } from 'esbuild';
import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * How every Hale Lambda is bundled, shared by the stack and `bench/bundles.bench.ts` so the measured
 * sizes are the deployed ones.
 *
 * ESM: franc-min, middy and unpdf ship as ES modules (unpdf's pdf.js build is ESM-first); esbuild
 * keeps them as they are and the `createRequire` banner lets the CommonJS dependencies (pdf-lib,
 * ucum-lhc) `require` Node built-ins. `module` before `main` picks the tree-shakable builds.
 *
 * The AWS SDK is bundled, not taken from the runtime: the nodejs22.x runtime ships an SDK v3 that AWS
 * updates on its own schedule and that lags our pinned 3.1162.0 by hundreds of releases, and
 * `lib-dynamodb` / `s3-request-presigner` are not documented as part of it. Bundling deploys exactly
 * the versions the tests ran against; it costs bundle size, which the bundles bench reports.
 */
export const BUNDLE_TARGET = 'node22';
export const ESM_REQUIRE_BANNER = "import{createRequire}from'node:module';const require=createRequire(import.meta.url);";
const MAIN_FIELDS = ['module', 'main'];

export const LAMBDA_BUNDLING: BundlingOptions = {
  forceDockerBundling: false,
  format: OutputFormat.ESM,
  target: BUNDLE_TARGET,
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  banner: ESM_REQUIRE_BANNER,
  mainFields: MAIN_FIELDS,
  bundleAwsSDK: true,
  externalModules: [],
};

/** The same build for esbuild's JS API (the bench measures it without CDK). */
export function esbuildOptionsFor(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLE_TARGET,
    minify: true,
    banner: { js: ESM_REQUIRE_BANNER },
    mainFields: MAIN_FIELDS,
    logLevel: 'silent',
  };
}
