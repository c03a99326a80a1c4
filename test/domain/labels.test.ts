import { describe, expect, it } from 'vitest';
import { giftLabel, premiumLabel, ruPlural, starsLabel } from '../../src/domain/labels.js';

/**
 * Order labels are always Russian (partner-api.md rule 7). The contract gives no literal label; the
 * spellings are the ones the service has always sent (README and the order tests:
 * "100 звёзд Telegram для @star_buyer", "Telegram Premium на 3 месяца для @plain_user"), with the
 * Russian number agreement worked out by hand: 1, 21, 101 → one; 2–4, 22–24 → few; 0, 5–20, 11–14, 111–114 → many.
 */
describe('ruPlural', () => {
  it.each([
    [0, 'many'],
    [1, 'one'],
    [2, 'few'],
    [3, 'few'],
    [4, 'few'],
    [5, 'many'],
    [10, 'many'],
    [11, 'many'],
    [12, 'many'],
    [13, 'many'],
    [14, 'many'],
    [15, 'many'],
    [20, 'many'],
    [21, 'one'],
    [22, 'few'],
    [24, 'few'],
    [25, 'many'],
    [50, 'many'],
    [100, 'many'],
    [101, 'one'],
    [102, 'few'],
    [111, 'many'],
    [112, 'many'],
    [114, 'many'],
    [121, 'one'],
    [122, 'few'],
    [1000, 'many'],
    [1001, 'one'],
    [1011, 'many'],
    [50000, 'many'],
  ])('%d → %s', (n, form) => {
    expect(ruPlural(n, 'one', 'few', 'many')).toBe(form);
  });
});

describe('starsLabel', () => {
  it.each([
    [50, 'alice_user', '50 звёзд Telegram для @alice_user'],
    [100, 'star_buyer', '100 звёзд Telegram для @star_buyer'],
    [101, 'bob_user', '101 звезда Telegram для @bob_user'],
    [102, 'bob_user', '102 звезды Telegram для @bob_user'],
    [111, 'bob_user', '111 звёзд Telegram для @bob_user'],
    [1001, 'bob_user', '1001 звезда Telegram для @bob_user'],
    [1234, 'bob_user', '1234 звезды Telegram для @bob_user'],
    [50000, 'bob_user', '50000 звёзд Telegram для @bob_user'],
  ])('%d stars for %s → %s', (n, user, label) => {
    expect(starsLabel(n, user)).toBe(label);
  });
});

describe('premiumLabel', () => {
  it.each([
    [3, 'plain_user', 'Telegram Premium на 3 месяца для @plain_user'],
    [6, 'premium_holder', 'Telegram Premium на 6 месяцев для @premium_holder'],
    [12, 'plain_user', 'Telegram Premium на 12 месяцев для @plain_user'],
  ])('%d months for %s → %s', (months, user, label) => {
    expect(premiumLabel(months, user)).toBe(label);
  });
});

describe('giftLabel', () => {
  it.each([
    ['Plush Pepe', 1234, 'nora_user', 'Подарок Plush Pepe #1234 для @nora_user'],
    ['Durov’s Cap', 7, 'Ann_01', 'Подарок Durov’s Cap #7 для @Ann_01'],
  ])('%s #%d for %s → %s', (name, num, user, label) => {
    expect(giftLabel(name, num, user)).toBe(label);
  });
});
