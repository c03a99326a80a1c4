/**
 * A deposit as the operator's console lists it: the first fields of the operator API's deposit view
 * (DepositView of src/app/deposits/view.ts extends it). Pure types with no imports: the Mini App's type check reads
 * it through src/http/app-api/types.ts.
 */
export interface DepositItem {
  deposit_id: string;
  network: string;
  asset: string;
  amount: string;
  tx_hash: string;
  from: string | null;
  comment: string | null;
  status: string;
  partner_id: number | null;
  created_at: string;
}
