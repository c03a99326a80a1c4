import { describe, expect, it } from 'vitest';
import { ACTIONS, may, PERMISSIONS, refusalOf, rolesOf, type Action, type Who } from '../../src/domain/permissions.js';
import { COMMAND_ACTION } from '../../bot/permissions.js';
import { commandsFor } from '../../bot/commands.js';

const owner: Who = { role: 'owner', operator: false };
const staff: Who = { role: 'staff', operator: false };
const operator: Who = { role: null, operator: true };
const stranger: Who = { role: null, operator: false };
const staffOperator: Who = { role: 'staff', operator: true };

/** The whole table, action by action: owner, staff, operator, a stranger, a staff member who is also an operator. */
const EXPECTED: Record<Action, [boolean, boolean, boolean, boolean, boolean]> = {
  'orders.place': [true, true, false, false, true],
  'orders.view': [true, true, false, false, true],
  'balance.view': [true, true, false, false, true],
  'notices.choose': [true, true, false, false, true],
  'ledger.view': [true, false, false, false, false],
  'notices.owners': [true, false, false, false, false],
  'alerts.manage': [true, false, false, false, false],
  'topups.request': [true, false, false, false, false],
  'apikey.manage': [true, false, false, false, false],
  'webhook.manage': [true, false, false, false, false],
  'team.manage': [true, false, false, false, false],
  'service.operate': [false, false, true, false, true],
  'reviews.resolve': [false, false, true, false, true],
  'deposits.resolve': [false, false, true, false, true],
  'exports.any_partner': [false, false, true, false, true],
};

describe('the permission table', () => {
  it('says who may do each action', () => {
    expect(ACTIONS.sort()).toEqual((Object.keys(EXPECTED) as Action[]).sort());
    for (const action of ACTIONS) {
      expect([owner, staff, operator, stranger, staffOperator].map((w) => may(w, action)), action).toEqual(EXPECTED[action]);
    }
  });

  it('an operator has no rights in a partner account, an owner none of an operator', () => {
    expect(rolesOf({ role: 'owner', operator: true })).toEqual(['owner', 'operator']);
    expect(rolesOf(stranger)).toEqual([]);
    expect(ACTIONS.filter((a) => may(operator, a))).toEqual(ACTIONS.filter((a) => PERMISSIONS[a].every((r) => r === 'operator')));
  });

  it('names who could have done it in a refusal', () => {
    expect(refusalOf('team.manage')).toBe('Only an owner of the partner account may do this.');
    expect(refusalOf('service.operate')).toBe('Only an operator of the service may do this.');
    expect(refusalOf('orders.place')).toBe('Only a person linked to the partner account may do this.');
  });

  it("the bot's command menus follow it", () => {
    const names = (role: 'owner' | 'staff' | null, op: boolean) => commandsFor('en', role, op).map((c) => c.command);
    expect(names('owner', false)).toEqual(['order', 'orders', 'balance', 'status', 'app', 'notices', 'topup', 'apikey', 'webhook', 'alerts', 'team', 'cancel', 'help']);
    expect(names('staff', false)).toEqual(['order', 'orders', 'balance', 'status', 'app', 'notices', 'cancel', 'help']);
    expect(names(null, true)).toEqual(['reviews', 'deposits', 'cancel', 'help']);
    expect(names(null, false)).toEqual(['start', 'help']);
    expect(Object.values(COMMAND_ACTION).every((a) => ACTIONS.includes(a))).toBe(true);
  });
});
