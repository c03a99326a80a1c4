import type { FragmentMode } from '../test/fragment/fakes.js';
import { settle, type Begin } from './actions.js';
import { saw, type Model } from './model.js';
import type { World } from './world.js';

/**
 * The steps only a Fragment history has (UPSTREAM=fragment, sim/fragment-stand.ts): Fragment and toncenter
 * misbehaving, a transfer toncenter kept surfacing late, prices moving, the operator funding the hot wallet,
 * subscriptions ending, and kills at the two instants that matter most to batches: as the signed batch
 * reaches toncenter (written, handed over: then executed, kept from the chain, or executed with the answer
 * lost) and while an executed batch's receipts are read.
 */

export interface FragmentFaults {
  /** Fragment's API: answering, down (502), or asking to slow down (429) */
  api: 'ok' | 'down' | 'rate_limited';
  /** toncenter's sendBoc: executes and answers; keeps the transfer from the chain and answers 500; executes and answers 500 */
  send: 'ok' | 'drop' | 'fail500';
  /** toncenter's index (the batch lookup and the receipts) does not answer */
  index: boolean;
  /** toncenter's wallet state does not answer */
  wallet: boolean;
}

export const NO_FRAGMENT_FAULTS: FragmentFaults = { api: 'ok', send: 'ok', index: false, wallet: false };

export function setFragmentFaults(w: World, m: Model, f: FragmentFaults): string[] {
  const s = w.fragment!;
  s.fragment.mode = f.api as FragmentMode;
  s.ton.sendMode = f.send;
  s.ton.indexDown = f.index;
  s.ton.walletDown = f.wallet;
  m.faultsOn = f.api !== 'ok' || f.send !== 'ok' || f.index || f.wallet;
  if (m.faultsOn) saw(m, `fragment: faults ${[f.api !== 'ok' ? `api ${f.api}` : '', f.send !== 'ok' ? `send ${f.send}` : '', f.index ? 'index down' : '', f.wallet ? 'wallet state down' : ''].filter(Boolean).join('+')}`);
  return [];
}

/** The transfers toncenter kept from the chain reach it now (executed if still valid, else refused by the wallet). */
export async function surfaceHeld(w: World, m: Model): Promise<string[]> {
  const r = await w.fragment!.surfaceHeld();
  if (r.executed) saw(m, 'fragment: a transfer kept from the chain executed late, still valid');
  if (r.refused) saw(m, 'fragment: a transfer kept from the chain refused by the wallet (expired or its seqno used)');
  return [];
}

export function movePrices(w: World, m: Model, factor: number | null): string[] {
  w.fragment!.setPrices(factor);
  saw(m, factor === null ? 'fragment: prices back' : factor > 1.02 ? 'fragment: prices rise beyond the tolerance' : 'fragment: prices move within the tolerance');
  return [];
}

export async function fundWallet(w: World, m: Model, ton: string): Promise<string[]> {
  await w.fragment!.ton.fund(w.service.fragment!.wallet.address, ton);
  saw(m, 'fragment: the operator funds the hot wallet');
  return [];
}

export function subscriptionsEnd(w: World, m: Model): string[] {
  w.fragment!.subscriptionsEnd();
  saw(m, 'fragment: Premium subscriptions end');
  return [];
}

export type SendThen = 'executed' | 'held' | 'lost';

/**
 * Orders are placed (`orders`, when given), then the clock moves `seconds` (they are prepared, a batch forms);
 * the process is killed at the instant its
 * signed batch reaches toncenter: the batch and every payment row of it are on disk, and the transfer is then
 * executed, kept from the chain (toncenter answered 500 and never passed it on: it may surface later), or
 * executed with the answer lost. The service restarts on what was on disk. Nothing happens when no batch left.
 */
export async function killAtSend(w: World, m: Model, then: SendThen, seconds: number, orders: Begin | null): Promise<string[]> {
  const v = orders ? await settle(await orders(w, m)) : [];
  const ton = w.fragment!.ton;
  const mode = ton.sendMode;
  let killed: Promise<void> | null = null;
  ton.sendMode = then === 'held' ? 'drop' : then === 'lost' ? 'fail500' : 'ok';
  ton.onSend = () => {
    ton.onSend = null;
    killed = w.crash();
  };
  const a = await w.advance(seconds);
  ton.onSend = null;
  ton.sendMode = mode;
  if (!killed) {
    saw(m, 'fragment: no batch left to kill at');
    return a.status === 200 ? v : [...v, `clock advance of ${seconds} s answered ${a.status} ${a.raw.slice(0, 300)}`];
  }
  await killed;
  await w.bury();
  saw(m, `fragment: killed as its batch reached toncenter (${then})`);
  return v;
}

/** Orders placed (when given), the clock moves `seconds`; the process is killed as it asks for an executed batch's receipts, and restarts. */
export async function killAtReceipts(w: World, m: Model, seconds: number, orders: Begin | null): Promise<string[]> {
  const v = orders ? await settle(await orders(w, m)) : [];
  const ton = w.fragment!.ton;
  let killed: Promise<void> | null = null;
  ton.onAdjacent = () => {
    ton.onAdjacent = null;
    killed = w.crash();
  };
  const a = await w.advance(seconds);
  ton.onAdjacent = null;
  if (!killed) return a.status === 200 ? v : [...v, `clock advance of ${seconds} s answered ${a.status} ${a.raw.slice(0, 300)}`];
  await killed;
  await w.bury();
  saw(m, 'fragment: killed while a batch’s receipts were read');
  return v;
}
