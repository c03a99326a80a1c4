import { Address, beginCell, Cell, external, internal, SendMode, storeMessage, storeStateInit, type Message } from '@ton/core';
import { mnemonicToPrivateKey, type KeyPair } from '@ton/crypto';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import type { LinkMessage, WalletAccount } from './fragment-api.js';
import { WALLET_MAX_MESSAGES } from './payment-checks.js';

/**
 * The operator's hot wallet (V4R2 or V5R1 from a 24-word mnemonic): signs transfers offline. The secret key
 * stays inside this object; nothing here logs or returns it.
 */
export interface SignedTransfer {
  /** the external message, base64 BOC, as sent to toncenter */
  boc: string;
  /** normalised hash of the external message (TEP-467), hex: the key of the on-chain lookup */
  normHash: string;
}

export class HotWallet {
  private constructor(
    private readonly keys: KeyPair,
    readonly contract: WalletContractV4 | WalletContractV5R1,
    readonly version: 'v4r2' | 'v5r1',
  ) {}

  static async fromMnemonic(words: string[], version: 'v4r2' | 'v5r1'): Promise<HotWallet> {
    return HotWallet.fromKeys(await mnemonicToPrivateKey(words), version);
  }

  static fromKeys(keys: KeyPair, version: 'v4r2' | 'v5r1'): HotWallet {
    const contract =
      version === 'v4r2'
        ? WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey })
        : WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey });
    return new HotWallet(keys, contract, version);
  }

  /** Messages one transfer of this contract carries at most (V4R2 4, V5R1 255). */
  get maxMessages(): number {
    return WALLET_MAX_MESSAGES[this.version];
  }

  get address(): Address {
    return this.contract.address;
  }

  /** The user-facing form (non-bounceable, as wallets show it). */
  get friendlyAddress(): string {
    return this.contract.address.toString({ bounceable: false });
  }

  /** How Fragment's getXLink methods expect the paying wallet to be described (TON Connect account). */
  account(): WalletAccount {
    const init = beginCell().store(storeStateInit(this.contract.init)).endCell();
    return { address: this.contract.address.toRawString(), chain: '-239', walletStateInit: init.toBoc().toString('base64'), publicKey: this.keys.publicKey.toString('hex') };
  }

  /**
   * Signs one transfer carrying `messages` (the payments of a batch: each order's own messages, with its own
   * destination, amount and payload), valid until `validUntil` (unix seconds), at `seqno`.
   */
  sign(messages: LinkMessage[], seqno: number, validUntil: number, deployed: boolean): SignedTransfer {
    const out = messages.map((m) => {
      const friendly = Address.isFriendly(m.address) ? Address.parseFriendly(m.address) : null;
      return internal({
        to: friendly ? friendly.address : Address.parse(m.address),
        value: BigInt(m.amount),
        bounce: friendly ? friendly.isBounceable : true,
        body: m.payload ? Cell.fromBase64(m.payload) : undefined,
      });
    });
    // PAY_GAS_SEPARATELY without IGNORE_ERRORS: a transfer the wallet cannot pay fails its action phase,
    // which the on-chain lookup sees (IGNORE_ERRORS would look like a success that sent nothing).
    const args = { seqno, secretKey: this.keys.secretKey, messages: out, sendMode: SendMode.PAY_GAS_SEPARATELY, timeout: validUntil };
    const body = this.contract instanceof WalletContractV4 ? this.contract.createTransfer(args) : this.contract.createTransfer(args);
    const ext = external({ to: this.contract.address, init: deployed ? undefined : this.contract.init, body });
    const boc = beginCell().store(storeMessage(ext)).endCell().toBoc().toString('base64');
    return { boc, normHash: normalisedHash(ext).toString('hex') };
  }
}

/** TEP-467: the hash of an external-in message with no source, no import fee, no init, body by reference. */
export function normalisedHash(message: Message): Buffer {
  if (message.info.type !== 'external-in') throw new Error('not an external-in message');
  const normalised: Message = { ...message, init: null, info: { ...message.info, src: undefined, importFee: 0n } };
  return beginCell().store(storeMessage(normalised, { forceRef: true })).endCell().hash();
}
