/**
 * The service's tracing port: the code marks the units worth a span (a job run, a supplier call) with `inSpan`,
 * and attaches ids to the current span with `annotateSpan`. Without OTEL_EXPORTER_OTLP_ENDPOINT nothing is
 * installed and both cost a function call; with it, src/ops/tracing.ts (imported only then) installs the
 * OpenTelemetry SDK behind them. The layers below ops never import OpenTelemetry themselves.
 */
export type SpanAttributes = Record<string, string | number | boolean | null | undefined>;

export interface Tracing {
  inSpan<T>(name: string, attributes: SpanAttributes, fn: () => T): T;
  annotate(attributes: SpanAttributes): void;
}

const off: Tracing = {
  inSpan: (_name, _attributes, fn) => fn(),
  annotate: () => {},
};

let current: Tracing = off;

/** Runs `fn` in a span of its own (ended when `fn` returns or its promise settles; a throw marks it failed). */
export function inSpan<T>(name: string, attributes: SpanAttributes, fn: () => T): T {
  return current.inSpan(name, attributes, fn);
}

/** Adds attributes to the span that is current here (an HTTP request, a job run), if any. */
export function annotateSpan(attributes: SpanAttributes): void {
  current.annotate(attributes);
}

export function installTracing(t: Tracing | null): void {
  current = t ?? off;
}
