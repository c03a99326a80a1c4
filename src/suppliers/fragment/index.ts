import { mnemonicValidate } from '@ton/crypto';
import { ConfigError, type Config } from '../../config/env.js';
import { FragmentApi } from './fragment-api.js';
import { FragmentUpstream, type FragmentDeps } from './fragment-upstream.js';
import { Toncenter } from '../chains/toncenter-wallet.js';
import { HotWallet } from './wallet.js';

export { FragmentUpstream } from './fragment-upstream.js';

/** Builds the Fragment adapter (imported lazily by src/service.ts: the TON libraries load only in this mode) from the FRAGMENT_* settings (present when UPSTREAM=fragment). */
export async function createFragmentUpstream(config: Config, deps: FragmentDeps): Promise<FragmentUpstream> {
  const c = config.fragment;
  if (!c) throw new Error('UPSTREAM=fragment without FRAGMENT_* settings');
  // the checksum of a TON mnemonic (the word list and count are checked when the configuration loads)
  if (!(await mnemonicValidate(c.mnemonic))) throw new ConfigError(['invalid configuration: FRAGMENT_MNEMONIC: not a valid TON mnemonic (value not shown)']);
  const wallet = await HotWallet.fromMnemonic(c.mnemonic, c.walletVersion);
  return new FragmentUpstream(deps, c, wallet, new FragmentApi(c.apiUrl, c.hash, c.cookies, () => Math.floor(deps.clock.now() / 1000)), new Toncenter(c.toncenterUrl, c.toncenterApiKey));
}
