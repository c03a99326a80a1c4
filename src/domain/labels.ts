/** Russian order labels (partner-api.md rule 7: `label` is always in Russian). */

/** Russian plural: 1 звезда, 2 звезды, 5 звёзд. */
export function ruPlural(n: number, one: string, few: string, many: string): string {
  const m10 = n % 10;
  const m100 = n % 100;
  if (m10 === 1 && m100 !== 11) return one;
  if (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14)) return few;
  return many;
}

export function starsLabel(quantity: number, username: string): string {
  return `${quantity} ${ruPlural(quantity, 'звезда', 'звезды', 'звёзд')} Telegram для @${username}`;
}

export function premiumLabel(months: number, username: string): string {
  return `Telegram Premium на ${months} ${ruPlural(months, 'месяц', 'месяца', 'месяцев')} для @${username}`;
}

export function giftLabel(name: string, num: number, username: string): string {
  return `Подарок ${name} #${num} для @${username}`;
}
