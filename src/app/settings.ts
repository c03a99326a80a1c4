import { z } from 'zod';
import { inTx, type Db } from '../store/db.js';
import { kvGet, kvSet } from '../store/kv-repo.js';
import { audit } from '../store/audit-repo.js';

/** Operator settings (PUT /settings), kept in the database and cached in memory (read on every request). */
export const settingsSchema = z.object({
  program_available: z.boolean(),
  products: z.object({
    stars: z.object({ enabled: z.boolean() }),
    premium: z.object({ enabled: z.boolean() }),
    nft: z.object({ enabled: z.boolean() }),
  }),
  /** The one margin over supplier cost, in basis points (500 = 5 %), for every partner. */
  margin_bps: z.number().int().min(0).max(100_000),
});
export type Settings = z.infer<typeof settingsSchema>;

export const settingsPatchSchema = z
  .object({
    program_available: z.boolean().optional(),
    products: z
      .object({
        stars: z.object({ enabled: z.boolean() }).strict().optional(),
        premium: z.object({ enabled: z.boolean() }).strict().optional(),
        nft: z.object({ enabled: z.boolean() }).strict().optional(),
      })
      .strict()
      .optional(),
    margin_bps: z.number().int().min(0).max(100_000).optional(),
  })
  .strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const DEFAULT_SETTINGS: Settings = {
  program_available: true,
  products: { stars: { enabled: true }, premium: { enabled: true }, nft: { enabled: true } },
  margin_bps: 500,
};

const KEY = 'settings';

export class SettingsStore {
  private cached: Settings;

  constructor(private readonly db: Db) {
    const stored = kvGet<Settings>(db, KEY);
    this.cached = stored ? settingsSchema.parse({ ...DEFAULT_SETTINGS, ...stored }) : DEFAULT_SETTINGS;
  }

  get(): Settings {
    return this.cached;
  }

  update(patch: SettingsPatch, now: number, actor: string): Settings {
    const next: Settings = {
      program_available: patch.program_available ?? this.cached.program_available,
      products: {
        stars: patch.products?.stars ?? this.cached.products.stars,
        premium: patch.products?.premium ?? this.cached.products.premium,
        nft: patch.products?.nft ?? this.cached.products.nft,
      },
      margin_bps: patch.margin_bps ?? this.cached.margin_bps,
    };
    inTx(this.db, (tx) => {
      kvSet(tx, KEY, next, now);
      audit(tx, now, actor, 'settings.update', null, patch);
    });
    this.cached = next;
    return next;
  }
}
