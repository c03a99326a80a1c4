// Builds what `npm start` and the operations commands run: the server (tsc into dist/) and the Mini App
// (Vite into webapp/dist). Plain JavaScript with no dependencies, so that it runs in a production install
// where the build tools have been pruned.
//
//   node scripts/build.mjs                      build both (npm run build)
//   node scripts/build.mjs --if-stale           build only a part that is missing or older than its sources (npm start)
//   node scripts/build.mjs --if-stale --server  the same for the server only (the operations commands)
//   node scripts/build.mjs --if-stale --server --use-built
//       the operations commands (backup, restore, fragment:check, gifts:*): as --if-stale where the build tools
//       are installed; in a pruned install they run the build that is there, whatever its files' time stamps
//       (a copy or a checkout changes them), and stop only when there is no build at all.
//   node scripts/build.mjs --if-stale --optional
//       postinstall: as --if-stale, but when the build tools are not installed (npm ci --omit=dev,
//       npm prune --omit=dev) say so and succeed: a production install must not fail here.
//
// A part counts as built when its stamp file (written after a successful build) is newer than every file it
// is built from; stamps rather than tsc's own bookkeeping, because `tsc -b` skips work without touching its
// outputs and a deleted output with a kept .tsbuildinfo would otherwise never be rebuilt.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const args = new Set(process.argv.slice(2));
const ifStale = args.has('--if-stale');
const optional = args.has('--optional');
const useBuilt = args.has('--use-built');

const PARTS = [
  {
    name: 'server',
    stamp: 'dist/.built',
    entry: 'dist/src/main.js',
    sources: ['src', 'bot', 'tsconfig.json', 'tsconfig.build.json', 'package.json'],
    tool: 'node_modules/typescript/bin/tsc',
    build() {
      // a deleted entry with a kept .tsbuildinfo would make tsc -b believe it is up to date
      if (!fs.existsSync(path.join(ROOT, this.entry))) fs.rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
      if (!run(this.tool, ['-b', 'tsconfig.build.json'])) return false;
      // partner_service_build_info (src/ops/build-info.ts): the commit this build comes from
      const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
      // without git (a container build: .git is not copied) the commit comes from BUILD_COMMIT
      const commit = git.status === 0 ? git.stdout.trim() : process.env.BUILD_COMMIT?.trim() || 'unknown';
      fs.writeFileSync(path.join(ROOT, 'dist', 'build-info.json'), `${JSON.stringify({ commit })}\n`);
      return true;
    },
  },
  {
    name: 'Mini App',
    stamp: 'webapp/dist/.built',
    entry: 'webapp/dist/index.html',
    // the app imports texts and labels from the server's tree
    sources: ['webapp', 'src/domain', 'src/presentation', 'bot/texts', 'package.json'],
    tool: 'node_modules/vite/bin/vite.js',
    build() {
      return run(this.tool, ['build', '--config', 'webapp/vite.config.ts']);
    },
  },
].filter((p) => !args.has('--server') || p.name === 'server');

function run(script, argv) {
  const r = spawnSync(process.execPath, [path.join(ROOT, script), ...argv], { cwd: ROOT, stdio: 'inherit' });
  return r.status === 0;
}

/** Newest modification time under p, leaving out build outputs and installed packages. */
function newest(p) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const f of fs.readdirSync(p)) if (f !== 'dist' && f !== 'node_modules') max = Math.max(max, newest(path.join(p, f)));
  return max;
}

function stale(part) {
  if (!fs.existsSync(path.join(ROOT, part.entry))) return true;
  const stamp = path.join(ROOT, part.stamp);
  if (!fs.existsSync(stamp)) return true;
  return Math.max(...part.sources.map((s) => newest(path.join(ROOT, s)))) > fs.statSync(stamp).mtimeMs;
}

for (const part of PARTS) {
  if (ifStale && !stale(part)) continue;
  if (!fs.existsSync(path.join(ROOT, part.tool))) {
    if (useBuilt && fs.existsSync(path.join(ROOT, part.entry))) continue;
    const why = `the ${part.name} is not built or older than its sources, and the build tools are not installed`;
    if (optional) {
      process.stderr.write(`note: ${why}; run \`npm run build\` where they are (npm ci), before npm prune --omit=dev\n`);
      continue;
    }
    process.stderr.write(`error: ${why}: run \`npm ci && npm run build\` first (then npm prune --omit=dev if you want a lean install)\n`);
    process.exit(1);
  }
  if (!part.build()) {
    process.stderr.write(`error: building the ${part.name} failed\n`);
    process.exit(1);
  }
  fs.writeFileSync(path.join(ROOT, part.stamp), `${new Date().toISOString()}\n`);
}
