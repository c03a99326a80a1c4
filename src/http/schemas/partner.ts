/**
 * The partner API's request and response shapes, one zod schema each, in files by subject. They are the
 * source of the OpenAPI document (src/http/openapi/document.ts) and the contract tests check live responses
 * against them. The order of the exports is the order of the document's components.
 */
export * from './fields.js';
export * from './error-bodies.js';
export * from './account.js';
export * from './validation.js';
export * from './orders.js';
export * from './nft-catalog.js';
export * from './order-events.js';
export * from './ledger.js';
export * from './stats.js';
