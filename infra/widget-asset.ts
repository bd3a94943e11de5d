import { spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import * as s3assets from 'aws-cdk-lib/aws-s3-assets';
import type { Construct } from 'constructs';
import { REPO_ROOT } from './bundling';

/** The widget's URL prefix and the key prefix of its files in the bucket (spec §2.9: a `v1` segment). */
export const WIDGET_VERSION = 'v1';

/**
 * The files of `widget/build.ts`'s output that browsers load, with the Content-Type each is served with.
 * Only these are deployed and readable through the API; the type declarations (`*.d.ts`, `types/`) are for
 * bundlers and stay out. A new runtime file of the widget must be added here.
 */
export const WIDGET_FILES = {
  'hale-widget.js': 'application/javascript; charset=utf-8',
  'hale-widget.mjs': 'application/javascript; charset=utf-8',
  'chart.umd.js': 'application/javascript; charset=utf-8',
  'integrity.json': 'application/json; charset=utf-8',
} as const satisfies Record<string, string>;

export type WidgetFile = keyof typeof WIDGET_FILES;

const BUILD_SCRIPT = path.join(REPO_ROOT, 'widget', 'build.ts');
const BUILD_DIR = path.join(REPO_ROOT, 'dist', 'widget', WIDGET_VERSION);

/**
 * Runs `widget/build.ts` (the build `npm start` serves locally; it rebuilds only when a widget source or
 * Chart.js is newer than dist/widget/v1) and stages WIDGET_FILES from there. A child process because
 * CDK bundling is synchronous and the build is not; the same Node binary as the synth, with tsx.
 */
function buildInto(outputDir: string): boolean {
  const build = spawnSync(process.execPath, [require.resolve('tsx/cli'), BUILD_SCRIPT], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`Widget build failed (${BUILD_SCRIPT}): ${build.stderr || build.error?.message || `exit ${build.status}`}`);
  for (const file of Object.keys(WIDGET_FILES)) copyFileSync(path.join(BUILD_DIR, file), path.join(outputDir, file));
  return true;
}

/**
 * The built widget as a CDK asset. Bundled like the Lambda code, so a synth that skips bundling
 * (`aws:cdk:bundling-stacks`) skips the widget build too; hashed by output, so the asset changes exactly
 * when a served file does.
 */
export function widgetAsset(scope: Construct, id: string): s3assets.Asset {
  return new s3assets.Asset(scope, id, {
    path: path.join(REPO_ROOT, 'widget'),
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: local bundling always succeeds or throws.
      image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-alpine'),
      local: { tryBundle: buildInto },
    },
  });
}
