import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build, version as esbuildVersion } from 'esbuild';
import { esbuildOptionsFor } from '../infra/bundling';
import { OCR_EXTERNAL_MODULES, portableOcrAssetCommands } from '../infra/ocr-bundle';
import type { LambdaFunction } from './lambda-invoker';
import { REPO_ROOT, repoPath } from './repo-paths';

const run = promisify(execFile);

/** Where the bundles of this checkout are kept: outside the repository, so its node_modules is out of reach. */
export function defaultBundleCacheDir(): string {
  const checkout = createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12);
  return path.join(os.tmpdir(), `hale-lambda-bundles-${checkout}`);
}

/** What a build read, so a later run can tell whether its output still holds. */
interface BuildManifest {
  options: string;
  inputs: string[];
}

/**
 * Each function's code as the stack deploys it: the esbuild bundle of infra/bundling.ts (the options
 * CDK's NodejsFunction passes), its `bundleFiles` copied beside `index.mjs`, and for the OCR function
 * Tesseract's files and `node_modules/@napi-rs/canvas` (linked to this machine's build; AWS gets arm64).
 *
 * The folder of every bundle lies outside the repository, and its one `node_modules` holds only
 * `@aws-sdk` (linked to the repository's): what the Lambda runtime provides. So a module the bundle
 * leaves out by mistake cannot be found, as on AWS.
 *
 * Built on a function's first call and kept in `cacheDir`, one folder per function and content: the
 * folder's name is a hash of the build options, esbuild's version, package-lock.json and every file
 * the build read (from esbuild's metafile) and copied. A later run reuses the folder while none of
 * these changed; folders are written under a temporary name and renamed, so runtimes building at once
 * never see half a bundle.
 */
export class LambdaBundles {
  private readonly builds = new Map<string, Promise<string>>();
  private sdkLinked?: Promise<void>;

  constructor(readonly cacheDir: string = defaultBundleCacheDir()) {}

  /** Path of the function's `index.mjs`, built when no current one is cached. */
  entryOf(fn: LambdaFunction): Promise<string> {
    let entry = this.builds.get(fn.id);
    if (!entry) {
      entry = this.current(fn);
      // A failed build is tried again on the next call, after the source may have been fixed.
      entry.catch(() => this.builds.delete(fn.id));
      this.builds.set(fn.id, entry);
    }
    return entry;
  }

  private async current(fn: LambdaFunction): Promise<string> {
    this.sdkLinked ??= this.linkRuntimeSdk();
    await this.sdkLinked;
    const options = optionsKey(fn);
    const manifestFile = path.join(this.cacheDir, `${fn.id}.json`);
    const manifest = await readManifest(manifestFile);
    if (manifest?.options === options) {
      const folder = path.join(this.cacheDir, `${fn.id}-${await contentHash(options, manifest.inputs)}`);
      if (existsSync(path.join(folder, 'index.mjs'))) return path.join(folder, 'index.mjs');
    }
    return this.build(fn, options, manifestFile);
  }

  private async build(fn: LambdaFunction, options: string, manifestFile: string): Promise<string> {
    const staging = await mkdtemp(path.join(this.cacheDir, `.building-${fn.id}-`));
    try {
      const esbuildOptions = esbuildOptionsFor(repoPath(fn.handler), path.join(staging, 'index.mjs'));
      if (fn.ocrAssets) esbuildOptions.external = [...(esbuildOptions.external ?? []), ...OCR_EXTERNAL_MODULES];
      const { metafile } = await build({ ...esbuildOptions, metafile: true, absWorkingDir: REPO_ROOT });
      const inputs = [...Object.keys(metafile.inputs).filter((input) => existsSync(repoPath(input))), 'package-lock.json'];
      for (const folder of fn.bundleFiles ?? []) {
        await cp(repoPath(folder), path.join(staging, path.basename(folder)), { recursive: true });
        inputs.push(...(await filesUnder(folder)));
      }
      if (fn.ocrAssets) await addOcrAssets(staging);
      const folder = path.join(this.cacheDir, `${fn.id}-${await contentHash(options, inputs)}`);
      await rename(staging, folder).catch(async (error: NodeJS.ErrnoException) => {
        // Another runtime built the same content first: theirs is as good.
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
        await rm(staging, { recursive: true, force: true });
      });
      await writeAtomically(manifestFile, JSON.stringify({ options, inputs } satisfies BuildManifest));
      await this.removeOlderBuilds(fn.id, path.basename(folder));
      return path.join(folder, 'index.mjs');
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
  }

  /** The SDK the Lambda runtime provides, and nothing else, beside the bundles. */
  private async linkRuntimeSdk(): Promise<void> {
    const modules = path.join(this.cacheDir, 'node_modules');
    await mkdir(modules, { recursive: true });
    await symlink(repoPath('node_modules/@aws-sdk'), path.join(modules, '@aws-sdk'), 'dir').catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }

  private async removeOlderBuilds(id: string, keep: string): Promise<void> {
    const older = (await readdir(this.cacheDir)).filter((name) => name.startsWith(`${id}-`) && name !== keep);
    await Promise.all(older.map((name) => rm(path.join(this.cacheDir, name), { recursive: true, force: true })));
  }
}

/** What decides a function's build besides the files it reads (the OCR assets: what is copied from package-lock's packages). */
function optionsKey(fn: LambdaFunction): string {
  const options = esbuildOptionsFor(fn.handler, 'index.mjs');
  const ocrAssets = fn.ocrAssets ? portableOcrAssetCommands(REPO_ROOT, 'out') : [];
  return JSON.stringify({ esbuild: esbuildVersion, options, bundleFiles: fn.bundleFiles ?? [], ocrAssets });
}

async function contentHash(options: string, inputs: readonly string[]): Promise<string> {
  const hash = createHash('sha256').update(options);
  for (const input of [...inputs].sort()) {
    hash.update(`\0${input}\0`);
    // A file that is gone no longer matches any build.
    hash.update(await readFile(repoPath(input)).catch(() => 'missing'));
  }
  return hash.digest('hex').slice(0, 16);
}

async function readManifest(file: string): Promise<BuildManifest | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as BuildManifest;
  } catch {
    return undefined;
  }
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const staging = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(staging, text);
  await rename(staging, file);
}

/** Repo-relative paths of the files under a repo-relative folder. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(repoPath(folder), { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)));
}

/** Tesseract's files and pdf.js's JPEG 2000 decoder as the stack ships them; the canvas module linked to this machine's native build. */
async function addOcrAssets(folder: string): Promise<void> {
  for (const command of portableOcrAssetCommands(REPO_ROOT, folder)) await run('/bin/bash', ['-c', command]);
  for (const module of OCR_EXTERNAL_MODULES) {
    const link = path.join(folder, 'node_modules', module);
    await mkdir(path.dirname(link), { recursive: true });
    await symlink(repoPath(`node_modules/${module}`), link, 'dir');
  }
}
