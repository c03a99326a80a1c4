import type { Order } from '../api/client';
import { giftLabel, premiumLabel, starsLabel } from '../../../src/domain/labels';
import { lang } from '../i18n';

const at = (recipient: string) => recipient.replace(/^@/, '');

/**
 * An order's title in the user's language, built from the order (type, quantity, gift, recipient); in
 * Russian it is the contract's own label (the same words), so the label line under it is left out.
 */
export function orderTitle(o: Pick<Order, 'type' | 'quantity' | 'recipient' | 'gift'>): string {
  const who = at(o.recipient);
  if (lang === 'ru') {
    if (o.type === 'stars') return starsLabel(o.quantity, who);
    if (o.type === 'premium') return premiumLabel(o.quantity, who);
    return o.gift ? giftLabel(o.gift.name, o.gift.num, who) : `Подарок для @${who}`;
  }
  if (o.type === 'stars') return `${o.quantity.toLocaleString('en')} Telegram Stars for @${who}`;
  if (o.type === 'premium') return `Telegram Premium for ${o.quantity} ${o.quantity === 1 ? 'month' : 'months'} for @${who}`;
  return o.gift ? `Gift ${o.gift.name} #${o.gift.num} for @${who}` : `Gift for @${who}`;
}

/** The contract's Russian label as a second line, when it says something the title does not (another language). */
export function labelLine(o: Pick<Order, 'label'>, title: string): string | null {
  return o.label === title ? null : o.label;
}
