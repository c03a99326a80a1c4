/** How a Telegram user is shown to their team: "Anna Petrova (@anna)", at most 100 characters; null without a name. */
export function displayName(u: { first_name?: string; last_name?: string; username?: string } | undefined): string | null {
  if (!u) return null;
  const name = [u.first_name, u.last_name].filter((x) => x && x.trim()).join(' ').trim();
  const handle = u.username ? `@${u.username}` : '';
  const text = name && handle ? `${name} (${handle})` : name || handle;
  return text ? [...text].slice(0, 100).join('') : null;
}
