import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** How to run another script of src/ops as a child process: from the TypeScript sources it needs the tsx loader. */
export function scriptCommand(name: string): { cmd: string; args: string[] } {
  const here = fileURLToPath(import.meta.url);
  const script = path.join(path.dirname(here), `${name}${path.extname(here)}`);
  // tsx by its resolved location: a bare `--import tsx` is resolved from the working folder, which need not be ours
  return { cmd: process.execPath, args: [...(here.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : []), script] };
}
