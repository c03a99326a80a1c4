import { z } from 'zod';
import { isClientReference } from '../../domain/client-reference.js';
import { ORDER_TYPES } from '../../domain/enums.js';
import { parsePositiveDecimal } from '../../domain/money.js';
import { IDEMPOTENCY_KEY_MAX } from './parse.js';

/**
 * The body of POST /orders. These schemas are the OpenAPI document's (src/http/schemas/orders.ts registers
 * them) and the validator's (createOrder and the order kinds parse with them through ./parse.ts). A rule the
 * document cannot state exactly (a length in characters, printable text, a positive decimal) is a
 * refinement, which the document leaves out and the parser applies.
 *
 * Request bodies accept and ignore fields they do not know (forward compatible): loose objects, so the
 * document says no `additionalProperties: false`, as the service does.
 */

const nonBlank = (s: string) => s.trim() !== '';

/** A gift's identifier: `<Name>-<number>`. Anything else is 400 bad_gift without asking the market. */
export const GIFT_ID = /^[A-Za-z][A-Za-z0-9]*-\d{1,9}$/;

/** client_reference: 1 to 128 characters (code points, not UTF-16 units), printable (domain/client-reference.ts). */
export const clientRef = z
  .string()
  .refine(isClientReference)
  .meta({ minLength: 1, maxLength: 128, description: '1 to 128 printable characters (no control or format characters, no line separators)', example: 'shop-order-8841' });

const recipient = z.string().refine(nonBlank);

export const StarsParams = z.looseObject({ quantity: z.number().int().meta({ description: 'STARS_MIN_PER_ORDER..STARS_MAX_PER_ORDER (default 50..50000)' }), recipient });
export const PremiumParams = z.looseObject({ months: z.union([z.literal(3), z.literal(6), z.literal(12)]), recipient });
export const NftParams = z.looseObject({
  gift: z.string().refine((s) => GIFT_ID.test(s)).meta({ example: 'HomemadeCake-6344' }),
  recipient,
  max_price: z
    .string()
    .refine((s) => parsePositiveDecimal(s) !== null)
    .meta({ description: 'positive TON amount, any number of decimals; the order is refused (409 price_changed) if the price is above it', example: '15.5' }),
});

export const orderRequestFields = {
  idempotency_key: z.string().max(IDEMPOTENCY_KEY_MAX).refine(nonBlank).meta({ description: 'mandatory; the same key and params return the same order with one debit' }),
  webhook_url: z.string().optional().meta({ description: 'per-order webhook address (the secret is always the dashboard one)' }),
  client_reference: clientRef.nullable().optional().meta({
    description:
      'optional: your own reference, 1 to 128 printable characters, else 400 validation_error with field client_reference; stored, part of the idempotency fingerprint, returned in every order view and webhook body, and a filter of GET /orders',
  }),
};
export const StarsOrderRequest = z.looseObject({ type: z.literal('stars'), ...orderRequestFields, params: StarsParams });
export const PremiumOrderRequest = z.looseObject({ type: z.literal('premium'), ...orderRequestFields, params: PremiumParams });
export const NftOrderRequest = z.looseObject({ type: z.literal('nft'), ...orderRequestFields, params: NftParams });
export const OrderRequest = z.discriminatedUnion('type', [StarsOrderRequest, PremiumOrderRequest, NftOrderRequest]).meta({
  discriminator: {
    propertyName: 'type',
    mapping: { stars: '#/components/schemas/StarsOrderRequest', premium: '#/components/schemas/PremiumOrderRequest', nft: '#/components/schemas/NftOrderRequest' },
  },
});

/**
 * What createOrder parses before the idempotency check: the fields of OrderRequest around `params`. The
 * contract's order of checks parses the rest later with the same schemas: `params` after the idempotency
 * check, an NFT order's `gift` after its recipient (whose errors hide later ones); `webhook_url` is judged
 * by the webhook address policy (its own `reason` codes).
 */
export const OrderEnvelope = z.looseObject({ type: z.enum(ORDER_TYPES), idempotency_key: orderRequestFields.idempotency_key, client_reference: orderRequestFields.client_reference });

/** `params` is an object (absent or null: an empty one); its fields are parsed by the order's kind. */
export const ParamsObject = z.looseObject({});

/** What an NFT order parses of its params before its recipient is resolved, and its gift after. */
export const NftParamsBeforeRecipient = NftParams.pick({ max_price: true, recipient: true });
export const NftGift = NftParams.pick({ gift: true });

/** The bodies of POST /validate/recipient and /validate/game (the OpenAPI document's, src/http/schemas/validation.ts): an order's type and recipient, checked before ordering. */
export const ValidateRecipientRequest = z.looseObject({ type: z.enum(ORDER_TYPES), username: z.string().refine((s) => s.trim() !== '').meta({ example: '@durov' }) });
export const ValidateGameRequest = z.looseObject({ username: z.string().refine((s) => s.trim() !== '') });
