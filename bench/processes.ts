import { readFile } from 'node:fs/promises';

/** Clock ticks a second, the unit of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const CLK_TCK = 100;

/** A process's peak RSS (VmHWM, every thread) and CPU time so far (user and system, every thread), from /proc. */
export async function procStatus(pid: number): Promise<{ peakRssMb: number; cpuSeconds: number }> {
  const [status, statLine] = await Promise.all([readFile(`/proc/${pid}/status`, 'utf8'), readFile(`/proc/${pid}/stat`, 'utf8')]);
  const peak = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  // A process that has exited but is not yet reaped (a zombie) has no memory left to report.
  if (peak === undefined) throw new Error(`process ${pid} has exited`);
  const peakKb = Number(peak);
  const fields = statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, i.e. 11 and 12 after the command.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { peakRssMb: peakKb / 1024, cpuSeconds: ticks / CLK_TCK };
}
