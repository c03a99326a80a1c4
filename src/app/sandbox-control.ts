import type { GiftListing, SandboxFaults, SandboxMarket } from '../suppliers/types.js';

export type { SandboxFaults, SandboxMarket };

/**
 * What the operator API's sandbox routes may do to the simulator of the suppliers (operator-api.md section 2,
 * second table): its market, fault switches, gift listings, DNS table and accounts. src/suppliers/sandbox
 * implements it and src/service.ts hands it to the HTTP app; nothing else of the simulator reaches HTTP.
 * The one file of src/app that names the sandbox: no use case imports it (test/architecture/layers.test.ts).
 */
export interface SandboxControl {
  getMarket(): SandboxMarket;
  setMarket(m: SandboxMarket): void;
  getFaults(): SandboxFaults;
  setFaults(f: SandboxFaults): void;
  setDns(hostname: string, addresses: string[]): void;
  deleteDns(hostname: string): boolean;
  setPremiumUntil(username: string, until: number | null): void;
  gifts: {
    gift(gift: string): Promise<GiftListing | null>;
    update(gift: string, change: { priceMilli?: number; available?: boolean; reserved?: boolean; outcome?: string }): boolean;
    /** The outcomes a listing can be told to meet on its next purchase (`ok`: none). */
    readonly outcomes: readonly string[];
    /** The SVG picture of a sandbox gift (GET /sandbox/gifts/<gift>.svg). */
    picture(gift: string): string | null;
  };
}
