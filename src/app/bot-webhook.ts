import crypto from 'node:crypto';
import type { Config } from '../config/env.js';

/**
 * Hands one update to the bot: the update as Telegram posted it, how to answer Telegram with a method call
 * (a webhook reply), and the secret header the request carried. Resolves once the update is handled (or
 * the bot stops waiting for it).
 */
export type BotUpdateHandler = (update: unknown, respond: (json: string) => unknown, secretHeader: string) => Promise<unknown>;

/**
 * The bot's webhook door when TELEGRAM_WEBHOOK_URL is set: the address and secret Telegram is given, and the
 * slot where the running bot attaches its handler (bot/runner.ts). The HTTP app serves the door at the
 * URL's path with the API's routes (src/http/app.ts: the app is ready before the bot starts): it checks
 * the secret and hands each update through.
 */
export class BotWebhook {
  private handler: BotUpdateHandler | null = null;
  private readonly secretDigest: Buffer;

  private constructor(
    readonly url: string,
    readonly path: string,
    readonly secret: string,
  ) {
    this.secretDigest = digest(secret);
  }

  /** The webhook of this configuration, or null in long-polling mode (or without a bot). */
  static fromConfig(config: Pick<Config, 'TELEGRAM_WEBHOOK_URL' | 'TELEGRAM_WEBHOOK_SECRET' | 'TELEGRAM_BOT_TOKEN'>): BotWebhook | null {
    const url = config.TELEGRAM_WEBHOOK_URL;
    const token = config.TELEGRAM_BOT_TOKEN;
    if (!url || !token) return null;
    // Unset secret: derived from the token, so it stays the same across restarts and replicas without
    // being stored, and changes when the token is revoked.
    const secret = config.TELEGRAM_WEBHOOK_SECRET ?? crypto.createHmac('sha256', token).update('telegram-webhook-secret').digest('base64url');
    return new BotWebhook(url, new URL(url).pathname, secret);
  }

  attach(handler: BotUpdateHandler): void {
    this.handler = handler;
  }

  detach(): void {
    this.handler = null;
  }

  /** Whether a request carries the secret; compared in constant time (digests of equal length). */
  authentic(header: string | string[] | undefined): header is string {
    if (typeof header !== 'string') return false;
    return crypto.timingSafeEqual(digest(header), this.secretDigest);
  }

  /** Hands an authentic update to the bot; null while no bot is attached (starting or stopping). */
  handle(update: unknown, respond: (json: string) => unknown, secretHeader: string): Promise<unknown> | null {
    return this.handler ? this.handler(update, respond, secretHeader) : null;
  }
}

const digest = (s: string): Buffer => crypto.createHash('sha256').update(s).digest();
