import { FastifyOtelInstrumentation } from '@fastify/otel';
import { context, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { FastifyInstance } from 'fastify';
import { installTracing, type SpanAttributes } from '../kernel/trace.js';
import { buildInfo } from './build-info.js';

/**
 * OpenTelemetry traces (docs/operations.md "Traces"), loaded by src/main.ts only when an OTLP endpoint is set
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): without one, none of this code or the SDK
 * is imported. The standard OTEL_* variables configure it (the exporter's endpoint, headers, timeout; the batch
 * processor; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES; OTEL_TRACES_SAMPLER). Spans: every HTTP request
 * (@fastify/otel, with the request id), every outgoing HTTP call made with undici or fetch (Fragment, toncenter,
 * TronGrid, BSC, webhook deliveries: @opentelemetry/instrumentation-undici), and the service's own units through
 * src/kernel/trace.ts (a job run, with its order or webhook; a supplier call, Telegram's MTProto included).
 * Metrics stay Prometheus.
 */
export interface TracingHandle {
  /** Registers the HTTP request spans: before the routes (ServiceOptions.instrumentHttp). */
  installHttp(app: FastifyInstance): void;
  /** Exports what is left and stops. */
  shutdown(): Promise<void>;
}

function clean(a: SpanAttributes): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(a)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

export function startTracing(): TracingHandle {
  const { version, commit } = buildInfo();
  // the environment's OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over these
  const resource = resourceFromAttributes({ 'service.name': 'partner-service', 'service.version': version, 'service.commit': commit }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  provider.register();
  new UndiciInstrumentation().setTracerProvider(provider);
  const fastifyOtel = new FastifyOtelInstrumentation({
    requestHook: (span, request) => span.setAttribute('http.request_id', request.id),
  });
  fastifyOtel.setTracerProvider(provider);
  const tracer = trace.getTracer('partner-service', version);
  installTracing({
    inSpan(name, attributes, fn) {
      return tracer.startActiveSpan(name, { attributes: clean(attributes) }, (span) => {
        const failed = (e: unknown) => {
          span.recordException(e instanceof Error ? { name: e.name, message: e.message } : String(e));
          span.setStatus({ code: SpanStatusCode.ERROR, message: e instanceof Error ? e.message : String(e) });
        };
        try {
          const r = fn();
          if (r instanceof Promise)
            return r.then(
              (v) => {
                span.end();
                return v;
              },
              (e: unknown) => {
                failed(e);
                span.end();
                throw e;
              },
            ) as typeof r;
          span.end();
          return r;
        } catch (e) {
          failed(e);
          span.end();
          throw e;
        }
      });
    },
    annotate(attributes) {
      trace.getSpan(context.active())?.setAttributes(clean(attributes));
    },
  });
  return {
    installHttp(app) {
      void app.register(fastifyOtel.plugin());
    },
    async shutdown() {
      installTracing(null);
      await provider.shutdown();
    },
  };
}
