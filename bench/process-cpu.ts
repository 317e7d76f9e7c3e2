import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (ms) a process has used so far; 0 once it is gone. Read from the scheduler's own count
 * of each of its threads' time on a CPU (`/proc/<pid>/task/<tid>/schedstat`, in nanoseconds):
 * `/proc/<pid>/stat`'s utime and stime come in clock ticks of 10 ms, too coarse to tell 0.05 ms
 * per request apart over a few hundred requests. A thread that ended meanwhile takes its time
 * with it; the processes measured here keep theirs (V8's and libuv's workers, PostgreSQL's
 * single-threaded backends).
 */
export function cpuMs(pid: number): number {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  let total = 0;
  for (const thread of threads) total += threadCpuMs(pid, Number(thread));
  return total;
}

/** CPU time (ms) one thread of a process has used so far, from its schedstat; 0 once it is gone. */
export function threadCpuMs(pid: number, tid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return 0;
  }
}
