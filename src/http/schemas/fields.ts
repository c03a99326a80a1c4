import { z } from 'zod';

/**
 * The registry of the partner API's schemas and the field shapes they share. Every schema registered here
 * becomes a component of the OpenAPI document (src/http/openapi/document.ts), in the order the schema files
 * are imported by ./partner.ts.
 */
export const partnerSchemas = z.registry<{ id: string; description?: string; example?: unknown }>();

export const reg = <T extends z.ZodType>(id: string, schema: T, description: string, example?: unknown): T => {
  partnerSchemas.add(schema, { id, description, ...(example === undefined ? {} : { example }) });
  return schema;
};

export const usd = z.string().regex(/^-?\d+\.\d{2}$/).meta({ description: 'USD amount, two decimals', example: '15.75' });
export const tonAmt = z.string().regex(/^-?\d+\.\d{3}$/).meta({ description: 'TON amount, three decimals', example: '12.345' });
export const localTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/).meta({ description: 'ISO 8601 local time with microseconds, no offset', example: '2026-03-01T12:00:00.000000' });
export const offsetTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/).meta({ description: 'ISO 8601 with UTC offset', example: '2026-03-01T12:00:03.000000+00:00' });
/** client_reference, as requests take it (src/app/requests/orders.ts) and answers return it. */
export { clientRef } from '../../app/requests/orders.js';
