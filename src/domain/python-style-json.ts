/**
 * JSON as webhook bodies are sent (partner-api.md "Events") and as request fingerprints are stored.
 *
 * A space after ':' and ',' and non-ASCII characters unescaped: the layout of
 * Python's json.dumps(..., ensure_ascii=False), which existing partner receivers re-serialise against.
 * JSON.stringify has no option for that spacing, hence this small serialiser.
 */
export function pythonStyleJson(value: unknown, opts: { sortKeys?: boolean } = {}): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Error('non-finite number in webhook body');
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      throw new Error(`cannot serialise ${typeof value}`);
  }
  // string building rather than map/join: this also runs for every order request (the request fingerprint)
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ', ' : '') + pythonStyleJson(value[i], opts);
    return `${out}]`;
  }
  const obj = value as Record<string, unknown>;
  const keys = opts.sortKeys ? sortedKeys(obj) : Object.keys(obj);
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined) continue;
    out += `${first ? '' : ', '}${JSON.stringify(k)}: ${pythonStyleJson(v, opts)}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * The key order of the stored request fingerprints: sorted, except that array-index keys ("0", "2", "10")
 * come first in numeric order, as in any JavaScript object (the first version built a sorted object and
 * serialised it). Object.keys already lists those first, in that order; only the rest is sorted.
 */
function sortedKeys(obj: object): string[] {
  const keys = Object.keys(obj);
  let i = 0;
  while (i < keys.length && /^(?:0|[1-9]\d{0,9})$/.test(keys[i]) && Number(keys[i]) < 4294967295) i++;
  return i === 0 ? keys.sort() : [...keys.slice(0, i), ...keys.slice(i).sort()];
}
