import type { SupplierAccount, SupplierFund } from '../../suppliers/types.js';

export type { SupplierFund };

/** What the supplier accounts hold, as the console's overview shows it. */
export type SupplierFundsReader = () => Promise<SupplierFund[]>;

/** The funds of the adapters in use that hold money (SupplierAccount), in their order. */
export function supplierFundsReader(accounts: readonly SupplierAccount[]): SupplierFundsReader {
  return async () => accounts.flatMap((a) => a.funds());
}

/**
 * The operator's view of the wallet that pays for Stars and Premium (UPSTREAM=fragment; the operator API's
 * GET /fragment/wallet and GET /fragment/payments/{order_id}): a fresh balance, Fragment's state, and an
 * order's payment with its on-chain evidence. Nothing of it is a secret.
 */
export interface PayingWallet {
  /** Reads the balance now (the last known one stays when the chain does not answer). */
  refreshWallet(): Promise<unknown>;
  walletView(): object;
  /** The order's payment, or null when it has none. */
  paymentView(orderId: string): object | null;
}
