/**
 * Whether traces are exported (docs/operations.md "Traces"): an OTLP endpoint is set with the standard
 * variables and the SDK is not switched off. Read here so that src/main.ts imports the OpenTelemetry SDK
 * (src/ops/tracing.ts) only then.
 */
export function otlpEndpointSet(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER?.trim() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}
