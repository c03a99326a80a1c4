'use strict';
// Preloaded by `bench/memory.ts --heap` into the service: on SIGUSR2 it prints the V8 heap's figures.
const v8 = require('node:v8');
const mb = (x) => (x / 1048576).toFixed(1);
process.on('SIGUSR2', () => {
  const m = process.memoryUsage();
  const spaces = v8.getHeapSpaceStatistics().filter((s) => s.physical_space_size > 0).map((s) => `${s.space_name.replace('_space', '')} ${mb(s.space_used_size)}/${mb(s.physical_space_size)}`);
  process.stderr.write(`  heap used ${mb(m.heapUsed)} of ${mb(m.heapTotal)} MB, external ${mb(m.external)} (array buffers ${mb(m.arrayBuffers)}); spaces used/committed: ${spaces.join(', ')}\n`);
});
if (process.env.BENCH_HEAP_SNAPSHOTS) {
  let n = 0;
  process.on('SIGUSR2', () => {
    const file = require('node:path').join(process.env.BENCH_HEAP_SNAPSHOTS, `step-${++n}.heapsnapshot`);
    v8.writeHeapSnapshot(file);
    process.stderr.write(`  heap snapshot: ${file}\n`);
  });
}
