import { describe, expect, it } from 'vitest';
import { textsOf } from '../../bot/texts/index.js';

/**
 * Every sentence of the bot's own word tables (English and Russian), filled with placeholder values: no
 * code shown raw (an error code, an event code, an HTTP route, a network code, "partner #1"). Words shared
 * with the Mini App (`shared`) have their own tests; the operators' fallback for an unknown alert kind
 * (`operator.other`) and for an unknown webhook failure (`webhookWhy.other`) show what they do not know.
 */

const FALLBACKS = new Set(['operator.other', 'webhookWhy.other', 'eventOther', 'errors.other']);

function sentences(node: unknown, path: string, out: { path: string; text: string }[]): void {
  if (FALLBACKS.has(path)) return;
  if (typeof node === 'string') out.push({ path, text: node });
  else if (typeof node === 'function') out.push({ path, text: String(node('X', 'Y', 'Z', 'W', 'V', 'U', 'T')) });
  else if (Array.isArray(node)) node.forEach((n, i) => sentences(n, `${path}[${i}]`, out));
  else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) sentences(v, path ? `${path}.${k}` : k, out);
}

const RAW = /\b[a-z]+_[a-z_]+\b|\border\.(completed|failed|refunded)\b|\bbalance\.low\b|\b(GET|POST|PUT|PATCH|DELETE) \/|\b(bep20|trc20)\b|partner #|\b[45]\d\d [a-z]/;

describe('the bot’s words', () => {
  for (const lang of ['en', 'ru'] as const) {
    it(`show no code raw (${lang})`, () => {
      const { shared: _shared, lang: _lang, ...own } = textsOf(lang);
      const all: { path: string; text: string }[] = [];
      sentences(own, '', all);
      expect(all.length).toBeGreaterThan(300);
      expect(all.filter((s) => RAW.test(s.text)).map((s) => `${s.path}: ${s.text}`)).toEqual([]);
    });
  }

  it('English words carry no Russian quotes, no № and no Cyrillic; Russian ones no English quotes around a name', () => {
    const en: { path: string; text: string }[] = [];
    const { shared: _s, lang: _l, ...ownEn } = textsOf('en');
    sentences(ownEn, '', en);
    expect(en.filter((s) => /[«»№\u0400-\u04FF]/.test(s.text)).map((s) => `${s.path}: ${s.text}`)).toEqual([]);
    const ru: { path: string; text: string }[] = [];
    const { shared: _s2, lang: _l2, ...ownRu } = textsOf('ru');
    sentences(ownRu, '', ru);
    expect(ru.filter((s) => /[“”]/.test(s.text)).map((s) => `${s.path}: ${s.text}`)).toEqual([]);
  });

  it('a minimum is said once: the first top-up line and the below-minimum refusal name it only by their figures', () => {
    const en = textsOf('en');
    const ru = textsOf('ru');
    expect(en.topup.firstTopup('10.00', '10.000')).toBe('The first top-up activates the account and must be at least 10.00 USD or 10.000 TON.');
    expect(ru.topup.firstTopup('10,00', '10,000')).toBe('Первое пополнение активирует аккаунт и должно быть не меньше 10,00 USD или 10,000 TON.');
    expect(en.operator.belowMinimum('“Acme”', '10.00', 'USD')).toBe('Not credited: for “Acme” a top-up must be at least 10.00 USD. Choose another partner, or /cancel and close the deposit.');
    expect(ru.operator.belowMinimum('«Ромашка»', '10,00', 'USD')).toBe('Не зачислено: для партнёра «Ромашка» пополнение должно быть не меньше 10,00 USD. Выберите другого партнёра или /cancel и закройте поступление.');
    expect(en.gifts.soldMeanwhile).toBe('This gift was just sold or reserved.');
    expect('exactAmountNote' in en.owner).toBe(false);
  });
});
