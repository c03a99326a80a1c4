import { z } from 'zod';

/** The order of a parameter schema's keywords in the document (the rest follow in their own order). */
const KEYWORDS = ['type', 'enum', 'minLength', 'maxLength', 'minimum', 'maximum', 'default'];

/**
 * The query parameters of an endpoint, read from the zod schema its use case parses the query with
 * (src/app/requests/queries.ts): one per field, in the schema's order, its description from the field's
 * meta, required unless the field may be absent. The JSON schema is what the parsed value is (a bounded
 * integer, an enumeration); a value that a transform decodes (a time, a cursor) is documented as text.
 */
export function queryParameters(schema: z.ZodObject, descriptions: Record<string, string> = {}): Record<string, unknown>[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const json = z.toJSONSchema(field as z.ZodType, { target: 'openapi-3.0', io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
    const { description, ...rest } = json;
    if (rest.type === undefined) rest.type = 'string';
    const ordered = Object.fromEntries([...KEYWORDS.filter((k) => k in rest).map((k) => [k, rest[k]]), ...Object.entries(rest).filter(([k]) => !KEYWORDS.includes(k))]);
    const required = !(field as z.ZodType).safeParse(undefined).success;
    return { name, in: 'query', required, description: descriptions[name] ?? description, schema: ordered };
  });
}
