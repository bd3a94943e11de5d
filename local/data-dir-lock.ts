import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const LOCK_FILE = 'runtime.lock';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One runtime per data folder: a second one would open the same LevelDB store and crash on its
 * lock. The lock file names the owning process; a file left by a process that died is taken over.
 * Returns the release function.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, LOCK_FILE);
  const token = `${process.pid}:${Math.random().toString(36).slice(2)}`;
  try {
    await writeFile(file, token, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = Number((await readFile(file, 'utf8').catch(() => '')).split(':')[0]);
    if (Number.isInteger(owner) && owner > 0 && isRunning(owner)) {
      throw new Error(`${dataDir} is in use by another Hale runtime (process ${owner}); stop it or choose another HALE_DATA_DIR`);
    }
    await writeFile(file, token);
  }
  return async () => {
    const current = await readFile(file, 'utf8').catch(() => undefined);
    if (current === token) await rm(file, { force: true });
  };
}
