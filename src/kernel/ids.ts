import crypto from 'node:crypto';

/** The service's source of randomness and identifiers; injected so tests can make it deterministic. */
export interface Ids {
  /** `n` random bytes as lowercase hex. */
  hex(bytes: number): string;
  uuid(): string;
  /** URL-safe random text of `bytes` random bytes. */
  token(bytes: number): string;
}

export const cryptoIds: Ids = {
  hex: (bytes) => crypto.randomBytes(bytes).toString('hex'),
  uuid: () => crypto.randomUUID(),
  token: (bytes) => crypto.randomBytes(bytes).toString('base64url'),
};
