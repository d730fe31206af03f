// A small tool-calling agent on the real Vercel AI SDK, traced with the OpenTelemetry JS SDK.
//
// Each turn: the model asks for `get_invoice`, the tool answers with a JSON record, the model writes
// the final answer. The AI SDK's own OpenTelemetry integration (@ai-sdk/otel) records the turn as
// GenAI semantic-convention spans; they leave over OTLP/HTTP (protobuf) for any Collector, the
// otel-groundedness gateway, or a file that `otel-groundedness replay` scores.
//
// Usage: node agent.mjs [--stream] [--model ID] [--agent NAME] [PROMPT ...]
//   Without PROMPT arguments, prompts are read from stdin as JSON lines: either a JSON string or
//   {"prompt": "...", "stream": true}. --stream streams every turn that does not say otherwise.
// Environment: OPENAI_BASE_URL (the model server, e.g. the project's fake one), OPENAI_API_KEY
//   (a dummy is used when unset), and the standard OTEL_EXPORTER_OTLP_ENDPOINT (or
//   OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME,
//   OTEL_RESOURCE_ATTRIBUTES.
// Output: one JSON line per turn on stdout ({turn, prompt, stream, trace_id, answer}), then one
//   summary line ({turns, exported_spans, span_ids, failed_spans}) after the SDK has shut down.
//   Exit code 1 when a turn or an export failed.

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

import { createOpenAI } from '@ai-sdk/openai';
import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { generateText, registerTelemetry, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';

const INSTRUCTIONS = 'You are a billing assistant. Use tools to look up invoices.';
const INVOICES = JSON.parse(readFileSync(new URL('./invoices.json', import.meta.url), 'utf8'));

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    stream: { type: 'boolean', default: false },
    model: { type: 'string', default: 'gpt-4o-mini' },
    agent: { type: 'string', default: 'invoice-agent' },
    'legacy-spans': { type: 'boolean', default: false },
  },
});

// --- OpenTelemetry: one tracer provider, OTLP out, configured by the standard OTEL_* variables ----

// Counts what the OTLP exporter really delivered, so a caller can check that every span arrived.
class CountingExporter {
  constructor(inner) {
    this.inner = inner;
    this.spanIds = [];
    this.failed = 0;
  }

  export(spans, done) {
    this.inner.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) {
        this.spanIds.push(...spans.map((span) => span.spanContext().spanId));
      } else {
        this.failed += spans.length;
        console.error(`OTLP export of ${spans.length} spans failed: ${result.error}`);
      }
      done(result);
    });
  }

  forceFlush() {
    return this.inner.forceFlush();
  }

  shutdown() {
    return this.inner.shutdown();
  }
}

// Remembers the trace id of the last root span, i.e. of the current turn (turns run one at a time).
class TurnTraceRecorder {
  lastTraceId = undefined;
  onStart(span) {
    if (!span.parentSpanContext) this.lastTraceId = span.spanContext().traceId;
  }
  onEnd() {}
  forceFlush() {
    return Promise.resolve();
  }
  shutdown() {
    return Promise.resolve();
  }
}

// Only OTLP/HTTP with protobuf is wired in; refuse a protocol setting that would be ignored.
const protocol =
  process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
if (protocol && protocol !== 'http/protobuf') {
  console.error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: this agent exports http/protobuf only`);
  process.exit(2);
}

// The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT and _HEADERS itself. The SDK's resource
// does not read OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES unless asked: envDetector does that,
// merged last so the environment wins over this program's default name.
const exporter = new CountingExporter(new OTLPTraceExporter());
const turnTraces = new TurnTraceRecorder();
const provider = new TracerProvider({
  resource: defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'vercel-ai-invoice-agent' }))
    .merge(detectResources({ detectors: [envDetector] })),
  spanProcessors: [turnTraces, new BatchSpanProcessor({ exporter })],
});
// The AI SDK nests its step, chat and tool spans through the active context: without a context
// manager every span would be a root of its own trace.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

// AI SDK 7 moved span creation out of `ai` into @ai-sdk/otel; `OpenTelemetry` writes the GenAI
// semantic conventions (invoke_agent / step / chat / execute_tool spans, gen_ai.* attributes).
// `agentSpanName: 'functionId'` names the root span `invoke_agent <agent>` like other agent SDKs.
// --legacy-spans selects LegacyOpenTelemetry instead: the `ai.*` spans of AI SDK ≤ 6.
const tracer = provider.getTracer('vercel-ai-agent');
registerTelemetry(
  flags['legacy-spans']
    ? new LegacyOpenTelemetry({ tracer })
    : new OpenTelemetry({ tracer, agentSpanName: 'functionId' }),
);

// --- The agent --------------------------------------------------------------------------------------

// The fake model server speaks Chat Completions, so the chat model (not the Responses API) is used.
const openai = createOpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'fake-key' });

const tools = {
  get_invoice: tool({
    description: 'Look up an invoice by id.',
    inputSchema: z.object({ invoice_id: z.string() }),
    // The JSON record is the evidence the final answer is scored against.
    execute: async ({ invoice_id }) => INVOICES[invoice_id] ?? { error: `no invoice ${invoice_id}` },
  }),
};

async function runTurn(prompt, stream) {
  const call = {
    model: openai.chat(flags.model),
    instructions: INSTRUCTIONS,
    prompt,
    tools,
    // Tool call, tool result, answer: two model calls. The default stops after the first step.
    stopWhen: stepCountIs(5),
    maxRetries: 0,
    // `telemetry` is AI SDK 7's name for what ≤6 called `experimental_telemetry` (still accepted, as
    // a deprecated alias). Inputs and outputs are recorded by default; said here because the
    // groundedness score needs both, and functionId becomes gen_ai.agent.name.
    telemetry: { isEnabled: true, recordInputs: true, recordOutputs: true, functionId: flags.agent },
  };
  if (!stream) return (await generateText(call)).text;
  let failure;
  const result = streamText({ ...call, onError: ({ error }) => (failure = error) });
  let answer = '';
  for await (const piece of result.textStream) answer += piece;
  if (failure) throw failure;
  return answer;
}

async function* turns() {
  if (positionals.length > 0) {
    for (const prompt of positionals) yield { prompt, stream: flags.stream };
    return;
  }
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const item = JSON.parse(line);
    if (typeof item === 'string') yield { prompt: item, stream: flags.stream };
    else yield { prompt: item.prompt, stream: item.stream ?? flags.stream };
  }
}

let count = 0;
let failedTurns = 0;
try {
  for await (const { prompt, stream } of turns()) {
    count += 1;
    try {
      const answer = await runTurn(prompt, stream);
      const line = { turn: count, prompt, stream, trace_id: turnTraces.lastTraceId, answer };
      console.log(JSON.stringify(line));
    } catch (error) {
      failedTurns += 1;
      console.error(`turn ${count} failed: ${error?.message ?? error}`);
    }
  }
} finally {
  // Ends the batch processor: every span still queued is exported before the process exits. A
  // failed export rejects here; it is already counted, so the summary below still tells the truth.
  await provider.shutdown().catch((error) => console.error(`telemetry shutdown: ${error.message}`));
}
const summary = {
  turns: count,
  exported_spans: exporter.spanIds.length,
  span_ids: exporter.spanIds,
  failed_spans: exporter.failed,
};
console.log(JSON.stringify(summary));
process.exitCode = failedTurns > 0 || exporter.failed > 0 ? 1 : 0;
