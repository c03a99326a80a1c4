/**
 * Holds a child process to a share of one CPU by stopping and continuing it (SIGSTOP / SIGCONT) within
 * each period. Written here because nothing else fits: nice alone still costs a serving process on the
 * same machine about a third of its rate (the two vCPUs share a core), cgroups' cpu.max needs privileges
 * the service does not have, and cpulimit is an external binary. Used only for a process that touches no
 * live database file (the check of a backup copy), so that a stop left behind by a killed parent harms
 * nothing but that copy.
 */
export function dutyCycle(pid: number, share: number, periodMs = 100): { stop(): void } {
  if (share >= 1) return { stop() {} };
  let running = true;
  let timer: NodeJS.Timeout | null = null;
  const signal = (s: NodeJS.Signals): boolean => {
    try {
      process.kill(pid, s);
      return true;
    } catch {
      return false; // the process has ended
    }
  };
  const flip = () => {
    running = !running;
    if (!signal(running ? 'SIGCONT' : 'SIGSTOP')) return;
    timer = setTimeout(flip, running ? periodMs * share : periodMs * (1 - share));
  };
  timer = setTimeout(flip, periodMs * share);
  return {
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      if (!running) signal('SIGCONT');
      running = true;
    },
  };
}
