import type { Ids } from '../src/kernel/ids.js';

/**
 * The simulation's one source of randomness besides fast-check's own: a small seeded generator
 * (mulberry32, public domain) for what the service draws while a history runs (ids, top-up offsets,
 * comment codes) and for the webhook receiver's answers. Hand-written because it is six lines and the
 * simulation needs a generator whose whole state is one number; fast-check's generators are for values
 * that shrink, and these must not.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }
}

/** The service's ids and randomness (src/kernel/ids.ts) drawn from the seed: a history replays exactly. */
export function seededIds(rng: Prng): Ids {
  return {
    hex: (bytes) => rng.bytes(bytes).toString('hex'),
    uuid: () => {
      const b = rng.bytes(16);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      const h = b.toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    },
    token: (bytes) => rng.bytes(bytes).toString('base64url'),
  };
}
