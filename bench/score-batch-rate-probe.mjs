// Run by bench/bulk.bench.ts in a process of its own: `node score-batch-rate-probe.mjs <bundle.mjs> <batches.jsonl>`.
// Times the deployed ScoreBatch bundle's scoreBatch on every batch of the file, over and over for at
// least five seconds, in CPU time; its writes (part files, progress counter) go to a store that only
// counts bytes, so what is measured is the function's own work, not the network's.
import { readFileSync } from 'node:fs';

const [bundle, batchesFile] = process.argv.slice(2);
const { scoreBatch } = await import(bundle);
const batches = readFileSync(batchesFile, 'utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line));
let bytesWritten = 0;
const io = {
  uploadsBucket: 'uploads',
  artifactsBucket: 'artifacts',
  objects: {
    put: async (_bucket, _key, body) => {
      bytesWritten += Buffer.byteLength(body);
    },
  },
  jobs: { addToCounters: async () => undefined },
};
// Warm-up: the first calls compile the code (a warm Lambda has done so).
for (const batch of batches.slice(0, 3)) await scoreBatch(io, batch);
bytesWritten = 0;
let items = 0;
let calls = 0;
const cpu = process.cpuUsage();
const started = performance.now();
while (performance.now() - started < 5000) {
  for (const batch of batches) {
    items += (await scoreBatch(io, batch)).items;
    calls += 1;
  }
}
const used = process.cpuUsage(cpu);
const cpuSeconds = (used.user + used.system) / 1e6;
process.stdout.write(JSON.stringify({ items, calls, cpuSeconds, wallSeconds: (performance.now() - started) / 1000, bytesWritten }));
