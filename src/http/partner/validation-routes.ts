import type { FastifyInstance } from 'fastify';
import { validateGame, validateRecipient } from '../../app/orders/recipient.js';
import { documented, type Endpoint } from '../route.js';
import { keyOf, type PartnerContext } from './context.js';

const SUPPLIER_DOWN = '503 `product_unavailable` (`upstream_unavailable`, `Retry-After`) when the supplier itself is down (with a real supplier: its session expired, verification needed, unreachable).';

const RECIPIENT: Endpoint = {
  method: 'post',
  path: '/validate/recipient',
  operationId: 'validateRecipient',
  tag: 'Validation',
  summary: 'Check a recipient',
  description: `Resolves a username as an order would. For \`premium\`, \`already_premium: true\` means an active subscription now: an order is accepted and waits until it ends. Rate limited per key (scope \`validate_recipient\`). ${SUPPLIER_DOWN}`,
  body: 'ValidateRecipientRequest',
  response: 'ValidateRecipientResult',
  okDescription: 'The recipient exists.',
  errors: ['bad_type', 'recipient_required', 'recipient_not_found', 'resolver_error', 'product_unavailable', 'bad_json'],
};

const GAME: Endpoint = {
  method: 'post',
  path: '/validate/game',
  operationId: 'validateGame',
  tag: 'Validation',
  summary: 'Check a game-platform user',
  description: `Rate limited per key (scope \`validate_recipient\`). ${SUPPLIER_DOWN}`,
  body: 'ValidateGameRequest',
  response: 'ValidateGameResult',
  okDescription: 'The user exists.',
  errors: ['recipient_required', 'recipient_not_found', 'product_unavailable', 'bad_json'],
};

export const validationEndpoints = [RECIPIENT, GAME];

/** POST /validate/recipient, POST /validate/game: both count against the `validate_recipient` scope. */
export function validationRoutes(app: FastifyInstance, { deps, limiter }: PartnerContext): void {
  documented(app, RECIPIENT, async (req) => {
    limiter.hit('validate_recipient', keyOf(req));
    return validateRecipient(deps, req.body);
  });
  documented(app, GAME, async (req) => {
    limiter.hit('validate_recipient', keyOf(req));
    return validateGame(deps, req.body);
  });
}
