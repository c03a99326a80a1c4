/**
 * What a supplier account holds, as the console shows it. Each supplier adapter that holds money reports
 * its accounts through this port (wired in src/http/app.ts); `pays` says which partner balance it pays
 * for: the Fragment hot wallet pays in TON for Stars and Premium sold for USD, the gift account pays
 * for gifts sold for TON.
 */
export interface SupplierFund {
  supplier: string;
  currency: 'TON' | 'STARS' | 'USD';
  /** Decimal string in `currency`. */
  amount: string;
  /** When the figure was read (ISO 8601 with offset). */
  updated_at: string;
  pays?: 'USD' | 'TON';
}

export type SupplierFundsReader = () => Promise<SupplierFund[]>;
