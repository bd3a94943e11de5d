import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * How every Hale Lambda is bundled, shared by the stack and `bench/bundles.bench.ts` so the measured
 * sizes are the deployed ones.
 *
 * ESM: franc-min, middy and unpdf ship as ES modules (unpdf's pdf.js build is ESM-first); esbuild
 * keeps them as they are. The banner gives the bundled CommonJS code what ESM lacks: `require` for
 * Node built-ins (pdf-lib, ucum-lhc) and `__dirname` / `__filename`, which point at the bundle's folder
 * (modules that read files beside themselves declare them in `bundleFiles`). `module` before `main`
 * picks the tree-shakable builds.
 *
 * The AWS SDK v3 is not bundled: the nodejs22.x runtime ships all of it (clients, lib-dynamodb,
 * s3-request-presigner), and bundling it costs ~500 kB per function, which would put 10 of the 34
 * bundles over the 1 MB budget (measured; infra/README.md, "Bundles"). The trade-off: the runtime's SDK version is AWS's choice and lags our pinned
 * 3.1162.0; Hale uses only long-stable operations (GetItem/UpdateItem/TransactWriteItems, Put/Get/List/
 * DeleteObjects, pre-signed PUT, StartExecution, DetectPHI, Textract AnalyzeDocument), and the one newer client option we set
 * (S3 `requestChecksumCalculation`) is ignored by older clients, which never add the checksum anyway.
 */
/** Handler paths in ROUTES and WORKERS are relative to the repository root. */
export const REPO_ROOT = path.resolve(__dirname, '..');
export const BUNDLE_TARGET = 'node22';
export const ESM_REQUIRE_BANNER =
  "import{createRequire as __haleCreateRequire}from'node:module';import{fileURLToPath as __haleToPath}from'node:url';" +
  'const require=__haleCreateRequire(import.meta.url);const __filename=__haleToPath(import.meta.url);' +
  "const __dirname=__filename.slice(0,__filename.lastIndexOf('/'));";
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
  bundleAwsSDK: false,
  externalModules: ['@aws-sdk/*'],
};

/** Shell commands that copy a definition's `bundleFiles` folders next to the bundle's entry file. */
export function copyBundleFiles(folders: readonly string[], inputDir: string, outputDir: string): string[] {
  return folders.map((folder) => `cp -R "${inputDir}/${folder}" "${outputDir}/${folder.split('/').pop()}"`);
}

/** The same build for esbuild's JS API (the benches and the local runtime's bundles mode build without CDK). */
export function esbuildOptionsFor(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLE_TARGET,
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    banner: { js: ESM_REQUIRE_BANNER },
    mainFields: MAIN_FIELDS,
    external: ['@aws-sdk/*'],
    logLevel: 'silent',
  };
}
