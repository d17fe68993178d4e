// Runs ONNX models with onnxruntime-node (CPU) for bcast's ORT comparisons
// (tools/ort/ort_models.py drives it; see there).
//
// Usage: node run_models.js JOBS.json
// JOBS.json: {"jobs": [{"model": path, "optimize": bool, "threads": n,
//   "inputs": {name: {"file": path, "type": "uint8"|"int8", "dims": [...]}},
//   "outputs": [name, ...], "output_file": path, "runs": n,
//   "profile_prefix": path or null}]}
// Each job runs its model `runs` times on the raw bytes of its input files and
// writes its outputs' raw bytes, concatenated in the listed order, to
// output_file. Prints one JSON line: [{"profile": file or null,
// "best_run_ms": the shortest session.run() wall time}, ...].
// The module is found through NODE_PATH (onnxruntime-node is installed
// outside the repository).
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const ARRAYS = { uint8: Uint8Array, int8: Int8Array };

function inputTensor(spec) {
  const bytes = fs.readFileSync(spec.file);
  const data = new ARRAYS[spec.type](bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return new ort.Tensor(spec.type, data, spec.dims);
}

// ORT names the trace PREFIX_<date>.json; endProfiling does not return it.
function newestTrace(prefix, before) {
  const dir = path.dirname(prefix);
  const base = path.basename(prefix);
  const found = fs.readdirSync(dir)
    .filter((f) => f.startsWith(base) && f.endsWith('.json') && !before.has(f))
    .map((f) => path.join(dir, f));
  if (found.length !== 1) throw new Error(`expected one profile trace for ${prefix}, found ${found.length}`);
  return found[0];
}

async function runJob(job) {
  const options = {
    graphOptimizationLevel: job.optimize ? 'all' : 'disabled',
    intraOpNumThreads: job.threads || 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  };
  let before = null;
  if (job.profile_prefix) {
    options.enableProfiling = true;
    options.profileFilePrefix = job.profile_prefix;
    before = new Set(fs.readdirSync(path.dirname(job.profile_prefix)));
  }
  const session = await ort.InferenceSession.create(job.model, options);
  const feeds = {};
  for (const [name, spec] of Object.entries(job.inputs)) feeds[name] = inputTensor(spec);
  let results = null;
  let bestMs = Infinity;  // session.run() wall time, beside the profiler's kernel time
  for (let i = 0; i < (job.runs || 1); i++) {
    const t0 = process.hrtime.bigint();
    results = await session.run(feeds);
    bestMs = Math.min(bestMs, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const out = fs.openSync(job.output_file, 'w');
  for (const name of job.outputs) {
    const d = results[name].data;
    fs.writeSync(out, Buffer.from(d.buffer, d.byteOffset, d.byteLength));
  }
  fs.closeSync(out);
  let profile = null;
  if (job.profile_prefix) {
    session.endProfiling();
    profile = newestTrace(job.profile_prefix, before);
  }
  await session.release();
  return { profile, best_run_ms: bestMs };
}

async function main() {
  const jobs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')).jobs;
  const done = [];
  for (const job of jobs) done.push(await runJob(job));
  process.stdout.write(JSON.stringify(done) + '\n');
}

main().catch((e) => {
  process.stderr.write(`run_models.js: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
