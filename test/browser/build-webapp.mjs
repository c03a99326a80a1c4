// Builds webapp/dist when it is missing or older than what it is built from (a checkout that moved since the
// last build). Run under flock by ensureWebappBuilt (test/browser/browser-helpers.ts), so that test files
// starting together build once: the one that waited finds the build fresh and leaves it alone.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** The app's sources and the files it imports from the server's tree. */
const SOURCES = ['webapp/src', 'webapp/index.html', 'webapp/vite.config.ts', 'src/presentation/words.ts', 'src/domain/labels.ts', 'src/http/app-api/types.ts'];

function newestMtime(p) {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((f) => newestMtime(path.join(p, f))));
}

const index = path.join(ROOT, 'webapp', 'dist', 'index.html');
const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
const sources = Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s))));
if (built < sources) execSync('npm run build:webapp --silent', { stdio: 'inherit', cwd: ROOT });
