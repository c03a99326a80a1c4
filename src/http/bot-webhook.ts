import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/env.js';
import { authChallenge } from './request-id.js';

/** Hands one update to the bot (grammY's `webhookCallback(bot, 'fastify')`). */
export type BotUpdateHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/**
 * The bot's webhook door when TELEGRAM_WEBHOOK_URL is set: a POST route at the URL's path, registered with
 * the API's routes (the app is ready before the bot starts), to which the bot attaches its handler.
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
  authentic(header: string | string[] | undefined): boolean {
    if (typeof header !== 'string') return false;
    return crypto.timingSafeEqual(digest(header), this.secretDigest);
  }

  register(app: FastifyInstance): void {
    app.post(this.path, async (req, reply) => {
      // no detail: a caller without the secret learns nothing
      if (!this.authentic(req.headers[SECRET_HEADER])) return reply.code(401).header('www-authenticate', authChallenge(req.url)).send();
      // Telegram retries later: the bot is starting or stopping
      if (!this.handler) return reply.code(503).send();
      await this.handler(req, reply);
      return reply;
    });
  }
}

const digest = (s: string): Buffer => crypto.createHash('sha256').update(s).digest();
