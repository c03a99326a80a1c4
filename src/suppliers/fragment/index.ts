import { mnemonicToPrivateKey, mnemonicValidate, type KeyPair } from '@ton/crypto';
import { ConfigError, type Config } from '../../config/env.js';
import { FragmentApi } from './fragment-api.js';
import { FragmentUpstream, type FragmentDeps } from './fragment-upstream.js';
import { Toncenter } from '../chains/toncenter-wallet.js';
import { walletUsed } from '../../store/fragment-payments-repo.js';
import { HotWallet } from './wallet.js';

export { FragmentUpstream } from './fragment-upstream.js';

/** Builds the Fragment adapter (imported lazily by src/service.ts: the TON libraries load only in this mode) from the FRAGMENT_* settings (present when UPSTREAM=fragment). */
export async function createFragmentUpstream(config: Config, deps: FragmentDeps): Promise<FragmentUpstream> {
  const c = config.fragment;
  if (!c) throw new Error('UPSTREAM=fragment without FRAGMENT_* settings');
  // the checksum of a TON mnemonic (the word list and count are checked when the configuration loads)
  if (!(await mnemonicValidate(c.mnemonic))) throw new ConfigError(['invalid configuration: FRAGMENT_MNEMONIC: not a valid TON mnemonic (value not shown)']);
  const keys = await mnemonicToPrivateKey(c.mnemonic);
  const wallet = HotWallet.fromKeys(keys, c.walletVersion ?? defaultVersion(keys, deps));
  return new FragmentUpstream(deps, c, wallet, new FragmentApi(c.apiUrl, c.hash, c.cookies, () => Math.floor(deps.clock.now() / 1000)), new Toncenter(c.toncenterUrl, c.toncenterApiKey));
}

/**
 * FRAGMENT_WALLET_VERSION unset: V5R1 (255 messages per transfer) for a new wallet; a database that already
 * paid from this mnemonic's V4R2 wallet keeps it (its address, balance and seqno), said in the log.
 */
function defaultVersion(keys: KeyPair, deps: FragmentDeps): 'v4r2' | 'v5r1' {
  const v4 = HotWallet.fromKeys(keys, 'v4r2');
  if (!walletUsed(deps.db, v4.address.toRawString())) return 'v5r1';
  deps.log.info({ address: v4.friendlyAddress }, 'FRAGMENT_WALLET_VERSION unset: keeping the V4R2 wallet this database already paid from');
  return 'v4r2';
}
