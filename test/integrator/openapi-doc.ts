import { Ajv } from 'ajv';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import type { Res, TestPartner, TestService } from '../helpers.js';

/**
 * The served OpenAPI document of a test service, a check of live answers against it (the documented
 * schema of that operation and status), and a client generated from it (openapi-typescript's types,
 * openapi-fetch against the service on a real port) as an integrator would make one.
 */
export async function documentOf(t: TestService) {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/partner/v1/openapi.json' })).json();
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'doc', components: doc.components });
  return {
    doc,
    /** The errors of `r` against the document (empty when it conforms). */
    violations(method: string, path: string, r: Pick<Res, 'status' | 'body'>): string[] {
      const documented = doc.paths[path]?.[method]?.responses?.[String(r.status)];
      if (!documented) return [`${method} ${path} does not document ${r.status}`];
      const schema = documented.content['application/json'].schema;
      const validate = ajv.compile(inDoc(schema) as object);
      return validate(r.body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    },
    /** The schema of a component validated against a value. */
    componentViolations(id: string, value: unknown): string[] {
      const validate = ajv.compile({ $ref: `doc#/components/schemas/${id}` });
      return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    },
    async generatedTypes(): Promise<string> {
      return astToString(await openapiTS(doc));
    },
    async client(p: TestPartner) {
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      return createClient<any>({ baseUrl: `${address}/api/partner/v1`, headers: { Authorization: `Bearer ${p.key}` } });
    },
  };
}

/** A schema of the document with its local references pointed at the registered `doc` schema (typed error bodies may be inline or referenced). */
function inDoc(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inDoc);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `doc${v}` : inDoc(v)]));
}
