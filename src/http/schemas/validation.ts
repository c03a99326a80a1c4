import { z } from 'zod';
import { ORDER_TYPES } from '../../domain/enums.js';
import * as req from '../../app/requests/orders.js';
import { reg } from './fields.js';

/** POST /validate/recipient and POST /validate/game. */

export const ValidateRecipientRequest = reg(
  'ValidateRecipientRequest',
  req.ValidateRecipientRequest,
  'POST /validate/recipient body (unknown fields are accepted and ignored)',
);
export const ValidateRecipientResult = reg(
  'ValidateRecipientResult',
  z.object({
    ok: z.literal(true),
    type: z.enum(ORDER_TYPES),
    username: z.string().meta({ description: 'normalised username, no @' }),
    name: z.string().meta({ description: 'the profile name' }),
    already_premium: z.literal(true).optional().meta({ description: 'premium only: an active subscription now; an order waits until it ends (not a refusal)' }),
    can_receive_gifts: z.boolean().optional().meta({ description: 'nft only' }),
  }),
  'The recipient exists. An unknown recipient is 400 recipient_not_found.',
);
export const ValidateGameRequest = reg('ValidateGameRequest', req.ValidateGameRequest, 'POST /validate/game body (unknown fields are accepted and ignored)');
export const ValidateGameResult = reg(
  'ValidateGameResult',
  z.object({ ok: z.literal(true), username: z.string(), found: z.literal(true), name: z.string().nullable() }),
  'The game-platform user exists. Unknown: 400 recipient_not_found; platform down: 503 product_unavailable.',
);
