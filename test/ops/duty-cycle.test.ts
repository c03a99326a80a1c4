import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dutyCycle } from '../../src/ops/duty-cycle.js';

/** CPU seconds a process has used (utime + stime of /proc/<pid>/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function state(pid: number): string {
  return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[0];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Real time and real CPU on purpose: the throttle acts on an operating-system process, outside the service clock.
describe('dutyCycle (the throttle of a backup check)', () => {
  it('holds a busy process to its share of a CPU, and leaves it running when stopped', async () => {
    const child = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
    try {
      await sleep(200);
      const c0 = cpuSeconds(child.pid!);
      const t0 = performance.now();
      const cycle = dutyCycle(child.pid!, 0.2, 50);
      await sleep(2000);
      const used = cpuSeconds(child.pid!) - c0;
      const wall = (performance.now() - t0) / 1000;
      // at most its share (a fifth), with room for the ticks' rounding; never the whole CPU it would take
      expect(used / wall).toBeLessThan(0.35);
      cycle.stop();
      await sleep(100);
      expect(state(child.pid!)).not.toBe('T'); // continued, never left stopped
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('never stops a process at a share of 1, and stops quietly once the process has ended', async () => {
    const busy = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
    try {
      await sleep(100);
      const none = dutyCycle(busy.pid!, 1, 20);
      // sampled every 5 ms over 15 periods: a throttle would show the process stopped (T) in some samples
      const states: string[] = [];
      for (let i = 0; i < 60; i++) {
        states.push(state(busy.pid!));
        await sleep(5);
      }
      none.stop();
      expect(states.filter((x) => x === 'T')).toEqual([]);
      // the same sampling sees the stops at a share of a half (the check above can fail)
      const half = dutyCycle(busy.pid!, 0.5, 20);
      const halfStates: string[] = [];
      for (let i = 0; i < 60; i++) {
        halfStates.push(state(busy.pid!));
        await sleep(5);
      }
      half.stop();
      expect(halfStates).toContain('T');
    } finally {
      busy.kill('SIGKILL');
    }
    const short = spawn(process.execPath, ['-e', 'setTimeout(()=>{}, 100)'], { stdio: 'ignore' });
    const cycle = dutyCycle(short.pid!, 0.5, 20);
    await new Promise((r) => short.once('exit', r));
    await sleep(60);
    expect(() => cycle.stop()).not.toThrow(); // signalling a process that has ended is not an error
  });
});
