import { z } from 'zod';
import { ORDER_TYPES } from '../../domain/enums.js';

/** The bodies of POST /validate/recipient and /validate/game (the OpenAPI document's, src/http/schemas/validation.ts). */

export const ValidateRecipientRequest = z.looseObject({ type: z.enum(ORDER_TYPES), username: z.string().refine((s) => s.trim() !== '').meta({ example: '@durov' }) });
export const ValidateGameRequest = z.looseObject({ username: z.string().refine((s) => s.trim() !== '') });
