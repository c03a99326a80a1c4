/**
 * Who may do what: one table for the bot, the Mini App and the operator's console. A person has a role at
 * a partner (`owner` or `staff`, from the invite they redeemed) and may also be an operator of the service
 * (listed in ADMIN_CHAT_IDS; the operator API's token holder acts as one). Being an operator gives no
 * rights in a partner's account, and a partner's owner is no operator unless listed.
 */
export type Role = 'owner' | 'staff' | 'operator';

export const PERMISSIONS = {
  // a partner's people
  'orders.place': ['owner', 'staff'],
  'orders.view': ['owner', 'staff'],
  'balance.view': ['owner', 'staff'],
  'notices.choose': ['owner', 'staff'],
  /** the ledger, and the ledger entries and refund state of an order's detail */
  'ledger.view': ['owner'],
  /** the owners' own notices (low balance, top-ups) */
  'notices.owners': ['owner'],
  'alerts.manage': ['owner'],
  'topups.request': ['owner'],
  'apikey.manage': ['owner'],
  'webhook.manage': ['owner'],
  'team.manage': ['owner'],
  // the service's operators
  'service.operate': ['operator'],
  'reviews.resolve': ['operator'],
  'deposits.resolve': ['operator'],
  'exports.any_partner': ['operator'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;
export const ACTIONS = Object.keys(PERMISSIONS) as Action[];

/** A person as the table sees them: their role at a partner (null: not linked) and whether they operate the service. */
export interface Who {
  role: 'owner' | 'staff' | null;
  operator: boolean;
}

export function rolesOf(who: Who): Role[] {
  return [...(who.role ? [who.role] : []), ...(who.operator ? (['operator'] as const) : [])];
}

export function may(who: Who, action: Action): boolean {
  const allowed: readonly Role[] = PERMISSIONS[action];
  return rolesOf(who).some((r) => allowed.includes(r));
}

/** The message of a refusal: who could have done it. */
export function refusalOf(action: Action): string {
  const allowed: readonly Role[] = PERMISSIONS[action];
  if (allowed.includes('operator') && allowed.length === 1) return 'Only an operator of the service may do this.';
  if (allowed.length === 1 && allowed[0] === 'owner') return 'Only an owner of the partner account may do this.';
  return 'Only a person linked to the partner account may do this.';
}
