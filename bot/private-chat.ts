/**
 * Owner secrets (the API key, the webhook secret, the Mini App sign-in link, and a team invite link) are
 * shown only in a private chat with that owner (operator-api.md section 4). In a group the commands that would show one answer with
 * a button opening the private chat: a `t.me/<bot>?start=<command>` deep link whose /start lands in the
 * same flow there.
 */
export const PRIVATE_ONLY = ['app', 'apikey', 'webhook', 'invite'] as const;
export type PrivateOnly = (typeof PRIVATE_ONLY)[number];

export function isPrivateOnly(command: string): command is PrivateOnly {
  return (PRIVATE_ONLY as readonly string[]).includes(command);
}

/** The deep link that opens the private chat with the bot and starts `command` there. */
export function deepLink(botUsername: string, command: PrivateOnly): string {
  return `https://t.me/${botUsername}?start=${command}`;
}

export function isPrivateChat(chat: { type: string } | undefined): boolean {
  return chat?.type === 'private';
}
