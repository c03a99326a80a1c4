import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The running build for `partner_service_build_info`: the package version and the git commit it was built
 * from. `npm run build` writes dist/build-info.json (scripts/build.mjs); running from the sources (tsx), or
 * from a build without it, the commit comes from git when there is one, else "unknown".
 */
export interface BuildInfo {
  version: string;
  commit: string;
}

export function buildInfo(): BuildInfo {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // src/ops (tsx) or dist/src/ops (the build)
  const root = [path.resolve(here, '..', '..'), path.resolve(here, '..', '..', '..')].find((d) => fs.existsSync(path.join(d, 'package.json')))!;
  const version = String(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version ?? 'unknown');
  try {
    const built = JSON.parse(fs.readFileSync(path.join(root, 'dist', 'build-info.json'), 'utf8')) as Partial<BuildInfo>;
    if (typeof built.commit === 'string' && built.commit) return { version, commit: built.commit };
  } catch {
    // not built by scripts/build.mjs
  }
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 }).trim();
    if (/^[0-9a-f]{40}$/.test(commit)) return { version, commit };
  } catch {
    // no git here
  }
  return { version, commit: 'unknown' };
}
