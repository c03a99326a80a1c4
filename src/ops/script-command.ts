import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** How to run another script of src/ops as a child process: from the TypeScript sources it needs the tsx loader. */
export function scriptCommand(name: string): { cmd: string; args: string[] } {
  const here = fileURLToPath(import.meta.url);
  const script = path.join(path.dirname(here), `${name}${path.extname(here)}`);
  return { cmd: process.execPath, args: [...(here.endsWith('.ts') ? ['--import', 'tsx'] : []), script] };
}
