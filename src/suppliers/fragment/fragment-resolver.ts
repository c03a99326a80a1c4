import { normaliseUsername } from '../username.js';
import { UpstreamUnavailable, type Recipient, type RecipientResolver } from '../types.js';
import { FragmentRejected, type FragmentApi, type FragmentProduct } from './fragment-api.js';
import { DOWN_RETRY_SEC, type FragmentHealth } from './fragment-health.js';

/** Recipients looked up on Fragment (its recipient searches): the resolver of every order type. */
export class FragmentResolver implements RecipientResolver {
  constructor(
    private readonly api: FragmentApi,
    private readonly health: FragmentHealth,
  ) {}

  /** A recipient search; an answer Fragment gives that we do not know is a resolver failure (502 resolver_error). */
  private async search(product: FragmentProduct, username: string, months?: number) {
    try {
      return await this.health.call(() => this.api.search(product, username, months));
    } catch (e) {
      if (e instanceof FragmentRejected) throw new UpstreamUnavailable(DOWN_RETRY_SEC, `Fragment search: ${e.message}`);
      throw e;
    }
  }

  async resolve(username: string): Promise<Recipient | null> {
    const u = normaliseUsername(username);
    if (!u) return null;
    const stars = await this.search('stars', u);
    if (stars.kind !== 'found') return null;
    const premium = await this.search('premium', u, 3);
    return { username: u, displayName: stars.found.name, premiumActive: premium.kind === 'already_premium', canReceiveGifts: true };
  }

  async checkGameUser(username: string) {
    const u = normaliseUsername(username);
    if (!u) return { found: false };
    const r = await this.search('stars', u);
    return r.kind === 'found' ? { found: true, displayName: r.found.name } : { found: false };
  }
}
