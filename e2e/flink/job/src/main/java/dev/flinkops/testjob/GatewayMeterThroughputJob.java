package dev.flinkops.testjob;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * The local engine's {@code gatewaymeter} pipeline ({@code engine/local/gatewaymeter/pipelines.ts}) on a real Flink,
 * for the throughput comparison ({@code engine/bench/real-flink-throughput.ts}):
 *
 * <pre>
 *   gateway-events (bounded generator of JSON lines, unthrottled; bounded out-of-orderness 2 s, idleness 30 s)
 *     -> parse (JSON line -> MeterEvent; invalid lines counted and dropped)
 *     -> keyBy(request_id) -> assemble (ValueState "open" per request; RequestCompleted emits a RequestRecord and
 *        clears it; an event-time timer 5 min after the start emits the request as abandoned)
 *     -> keyBy(tenant_id) -> tenant-cost (1-minute tumbling event-time windows, USD per tenant from the price table)
 *     -> usd-sink (discarding)
 * </pre>
 *
 * <p>The generator ({@link GatewayTraffic}) is a port of the TypeScript one: with the same settings it yields the same
 * events. Program arguments (all optional): {@code --events N} (default 1,000,000), {@code --seed S} (42),
 * {@code --rate R} events per second of event time (100,000: the local benchmark's setting; it only spaces the event
 * timestamps, nothing is throttled), {@code --start-time MS} (2026-01-01T00:00:00Z), {@code --parallelism P} (1),
 * {@code --checkpoint-ms MS} (0: checkpointing off, whatever the cluster's configuration says).
 *
 * <p>Accumulators (REST {@code /jobs/:jobid/accumulators}): {@code events}, {@code parseErrors},
 * {@code requestRecords}, {@code abandonedRequests}, {@code windows}, {@code nanoUsd}: a check that the whole pipeline
 * ran. Uses only DataStream APIs present in both Flink 1.20.x and 2.x.
 */
public final class GatewayMeterThroughputJob {

    public static final String JOB_NAME = "gatewaymeter-throughput";
    /** How long {@code assemble} waits for a completion before emitting the request as abandoned (event time). */
    static final long ABANDON_AFTER_MS = 5 * 60 * 1000L;
    static final Duration WINDOW = Duration.ofMinutes(1);

    private GatewayMeterThroughputJob() {}

    public static void main(String[] args) throws Exception {
        GatewayTraffic.Config traffic = new GatewayTraffic.Config();
        int parallelism = 1;
        long checkpointMs = 0L;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--events": traffic.events = Long.parseLong(require(a, v)); i++; break;
                case "--seed": traffic.seed = Integer.parseInt(require(a, v)); i++; break;
                case "--rate": traffic.rate = Double.parseDouble(require(a, v)); i++; break;
                case "--start-time": traffic.startTime = Long.parseLong(require(a, v)); i++; break;
                case "--parallelism": parallelism = Integer.parseInt(require(a, v)); i++; break;
                case "--checkpoint-ms": checkpointMs = Long.parseLong(require(a, v)); i++; break;
                default: throw new IllegalArgumentException("unknown argument: " + a);
            }
        }
        if (traffic.events <= 0) {
            throw new IllegalArgumentException("--events must be > 0");
        }
        if (!(traffic.rate > 0)) {
            throw new IllegalArgumentException("--rate must be > 0");
        }
        if (parallelism <= 0) {
            throw new IllegalArgumentException("--parallelism must be > 0");
        }

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        env.setParallelism(parallelism);
        env.setMaxParallelism(128);
        if (checkpointMs > 0) {
            env.enableCheckpointing(checkpointMs);
        } else {
            // the test cluster's config enables checkpoints every 10 s: not for the throughput run
            env.getCheckpointConfig().disableCheckpointing();
        }

        WatermarkStrategy<String> watermarks = WatermarkStrategy
                .<String>forBoundedOutOfOrderness(Duration.ofMillis(2000))
                .withIdleness(Duration.ofSeconds(30));

        DataStream<String> lines = env
                .fromSource(new GatewayTrafficSource(traffic), watermarks, "gateway-events", Types.STRING)
                .uid("gateway-events")
                .name("gateway-events");

        DataStream<MeterEvent> events = lines
                .process(new Parse())
                .uid("parse")
                .name("parse");

        DataStream<RequestRecord> records = events
                .keyBy(new RequestIdKey())
                .process(new Assemble())
                .uid("assemble")
                .name("assemble");

        DataStream<UsdTenantCost> costs = records
                .keyBy(new TenantKey())
                .window(TumblingEventTimeWindows.of(WINDOW))
                .aggregate(new UsdAggregate(), new EmitUsdTenantCost())
                .uid("tenant-cost")
                .name("tenant-cost");

        costs.sinkTo(new DiscardingSink<UsdTenantCost>())
                .uid("usd-sink")
                .name("usd-sink");

        JobExecutionResult result = env.execute(JOB_NAME);
        try {
            // attached runs (e.g. a local MiniCluster) print the figures; a REST submission is detached
            System.out.println(JOB_NAME + ": " + traffic.events + " events in " + result.getNetRuntime() + " ms, accumulators "
                    + new java.util.TreeMap<>(result.getAllAccumulatorResults()));
        } catch (RuntimeException detached) {
            // no results in detached mode: read them from the REST API
        }
    }

    private static String require(String name, String value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return value;
    }

    // ------------------------------------------------------------------ parse ---

    /** {@code parse}: JSON line -> MeterEvent (Jackson tree, as {@code JSON.parse}); invalid lines are counted and dropped. */
    static final class Parse extends ProcessFunction<String, MeterEvent> {
        private static final long serialVersionUID = 1L;
        private transient ObjectMapper mapper;
        private transient Counter errors;
        private transient LongCounter eventsIn;
        private transient LongCounter parseErrors;

        @Override
        public void open(OpenContext openContext) {
            mapper = new ObjectMapper();
            errors = getRuntimeContext().getMetricGroup().counter("numParseErrors");
            eventsIn = new LongCounter();
            parseErrors = new LongCounter();
            getRuntimeContext().addAccumulator("events", eventsIn);
            getRuntimeContext().addAccumulator("parseErrors", parseErrors);
        }

        @Override
        public void processElement(String line, Context ctx, Collector<MeterEvent> out) {
            eventsIn.add(1L);
            MeterEvent event = parse(mapper, line);
            if (event != null) {
                out.collect(event);
            } else {
                errors.inc();
                parseErrors.add(1L);
            }
        }
    }

    private static boolean isEventType(String t) {
        switch (t) {
            case "RequestStarted":
            case "TokenGenerated":
            case "ToolCalled":
            case "AgentStepCompleted":
            case "ModelError":
            case "RequestCompleted":
                return true;
            default:
                return false;
        }
    }

    /** {@code parseEvent(line)} of events.ts: null when the line is not a valid GatewayMeter event. */
    static MeterEvent parse(ObjectMapper mapper, String line) {
        JsonNode e;
        try {
            e = mapper.readTree(line);
        } catch (Exception ex) {
            return null;
        }
        if (e == null || !e.isObject()) {
            return null;
        }
        JsonNode type = e.get("event_type");
        JsonNode requestId = e.get("request_id");
        JsonNode tenantId = e.get("tenant_id");
        JsonNode model = e.get("model");
        JsonNode ts = e.get("ts");
        if (type == null || !type.isTextual() || !isEventType(type.textValue())
                || requestId == null || !requestId.isTextual()
                || tenantId == null || !tenantId.isTextual()
                || model == null || !model.isTextual()
                || ts == null || !ts.isNumber() || !Double.isFinite(ts.doubleValue())) {
            return null;
        }
        MeterEvent event = new MeterEvent();
        event.eventType = type.textValue();
        event.requestId = requestId.textValue();
        event.tenantId = tenantId.textValue();
        event.model = model.textValue();
        event.ts = ts.longValue();
        JsonNode payload = e.get("payload");
        if (payload != null && payload.isObject()) {
            event.promptTokens = longOrNull(payload.get("prompt_tokens"));
            event.latencyMs = longOrNull(payload.get("latency_ms"));
            event.completionTokens = longOrNull(payload.get("completion_tokens"));
            JsonNode status = payload.get("status");
            event.status = status != null && status.isTextual() ? status.textValue() : null;
        }
        return event;
    }

    private static Long longOrNull(JsonNode n) {
        return n != null && n.isNumber() ? n.longValue() : null;
    }

    // --------------------------------------------------------------- assemble ---

    static final class RequestIdKey implements KeySelector<MeterEvent, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(MeterEvent event) {
            return event.requestId;
        }
    }

    /**
     * {@code assemble}, keyed by request_id: keyed ValueState {@code open} per request; RequestCompleted emits a
     * RequestRecord and clears the state (and deletes the timer); a completion without a start is counted and
     * dropped; an event-time timer emits {@code status = "abandoned"} 5 minutes after a start that never completes.
     */
    static final class Assemble extends KeyedProcessFunction<String, MeterEvent, RequestRecord> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<OpenRequest> state;
        private transient Counter completionsWithoutStart;
        private transient Counter eventsWithoutStart;
        private transient Counter duplicateStarts;
        private transient Counter abandoned;
        private transient LongCounter requestRecords;
        private transient LongCounter abandonedRequests;
        private transient Map<String, String> names;

        @Override
        public void open(OpenContext openContext) {
            state = getRuntimeContext().getState(new ValueStateDescriptor<>("open", OpenRequest.class));
            completionsWithoutStart = getRuntimeContext().getMetricGroup().counter("completionsWithoutStart");
            eventsWithoutStart = getRuntimeContext().getMetricGroup().counter("eventsWithoutStart");
            duplicateStarts = getRuntimeContext().getMetricGroup().counter("duplicateStarts");
            abandoned = getRuntimeContext().getMetricGroup().counter("abandonedRequests");
            requestRecords = new LongCounter();
            abandonedRequests = new LongCounter();
            getRuntimeContext().addAccumulator("requestRecords", requestRecords);
            getRuntimeContext().addAccumulator("abandonedRequests", abandonedRequests);
            names = new HashMap<>();
        }

        /** One String instance per tenant / model name held in state. */
        private String intern(String s) {
            String known = names.putIfAbsent(s, s);
            return known != null ? known : s;
        }

        @Override
        public void processElement(MeterEvent e, Context ctx, Collector<RequestRecord> out) throws Exception {
            OpenRequest open = state.value();
            switch (e.eventType) {
                case "RequestStarted": {
                    if (open != null) {
                        duplicateStarts.inc();
                        return;
                    }
                    OpenRequest o = new OpenRequest();
                    o.tenantId = intern(e.tenantId);
                    o.model = intern(e.model);
                    o.startTs = e.ts;
                    o.promptTokens = e.promptTokens != null ? e.promptTokens : 0L;
                    state.update(o);
                    ctx.timerService().registerEventTimeTimer(e.ts + ABANDON_AFTER_MS);
                    return;
                }
                case "RequestCompleted": {
                    if (open == null) {
                        completionsWithoutStart.inc();
                        return;
                    }
                    RequestRecord r = new RequestRecord();
                    r.requestId = e.requestId;
                    r.tenantId = open.tenantId;
                    r.model = open.model;
                    r.startTs = open.startTs;
                    r.endTs = e.ts;
                    r.latencyMs = e.latencyMs != null ? e.latencyMs : e.ts - open.startTs;
                    r.promptTokens = open.promptTokens;
                    r.completionTokens = e.completionTokens != null ? e.completionTokens : 0L;
                    r.status = "error".equals(e.status) || open.errors > 0 ? "error" : "ok";
                    r.toolCalls = open.toolCalls;
                    r.agentSteps = open.agentSteps;
                    r.errors = open.errors;
                    requestRecords.add(1L);
                    out.collect(r);
                    state.clear();
                    ctx.timerService().deleteEventTimeTimer(open.startTs + ABANDON_AFTER_MS);
                    return;
                }
                default:
                    if (open == null) {
                        eventsWithoutStart.inc();
                        return;
                    }
                    if ("ToolCalled".equals(e.eventType)) {
                        open.toolCalls++;
                    } else if ("AgentStepCompleted".equals(e.eventType)) {
                        open.agentSteps++;
                    } else if ("ModelError".equals(e.eventType)) {
                        open.errors++;
                    }
                    state.update(open);
            }
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<RequestRecord> out) throws Exception {
            OpenRequest open = state.value();
            if (open == null || timestamp != open.startTs + ABANDON_AFTER_MS) {
                return;
            }
            abandoned.inc();
            abandonedRequests.add(1L);
            RequestRecord r = new RequestRecord();
            r.requestId = ctx.getCurrentKey();
            r.tenantId = open.tenantId;
            r.model = open.model;
            r.startTs = open.startTs;
            r.endTs = timestamp;
            r.latencyMs = timestamp - open.startTs;
            r.promptTokens = open.promptTokens;
            r.completionTokens = 0L;
            r.status = "abandoned";
            r.toolCalls = open.toolCalls;
            r.agentSteps = open.agentSteps;
            r.errors = open.errors;
            requestRecords.add(1L);
            out.collect(r);
            state.clear();
        }
    }

    // ------------------------------------------------------------ tenant-cost ---

    static final class TenantKey implements KeySelector<RequestRecord, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(RequestRecord record) {
            return record.tenantId;
        }
    }

    /**
     * Cost of a request in nano-USD ({@code requestCostNanoUsd} of prices.ts, with its default table): model-a
     * 0.0025 / 0.0100 USD per 1k input / output tokens, model-b 0.0005 / 0.0015; unknown models cost 0.
     */
    static long requestCostNanoUsd(RequestRecord r) {
        switch (r.model) {
            case "model-a": return r.promptTokens * 2_500L + r.completionTokens * 10_000L;
            case "model-b": return r.promptTokens * 500L + r.completionTokens * 1_500L;
            default: return 0L;
        }
    }

    /** USD per tenant window: accumulator {nano-USD, requests}. */
    static final class UsdAggregate implements AggregateFunction<RequestRecord, long[], long[]> {
        private static final long serialVersionUID = 1L;

        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(RequestRecord r, long[] acc) {
            acc[0] += requestCostNanoUsd(r);
            acc[1] += 1;
            return acc;
        }

        @Override
        public long[] getResult(long[] acc) {
            return acc;
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            return new long[] {a[0] + b[0], a[1] + b[1]};
        }
    }

    static final class EmitUsdTenantCost extends ProcessWindowFunction<long[], UsdTenantCost, String, TimeWindow> {
        private static final long serialVersionUID = 1L;
        private transient LongCounter windows;
        private transient LongCounter nanoUsd;

        @Override
        public void open(OpenContext openContext) {
            windows = new LongCounter();
            nanoUsd = new LongCounter();
            getRuntimeContext().addAccumulator("windows", windows);
            getRuntimeContext().addAccumulator("nanoUsd", nanoUsd);
        }

        @Override
        public void process(String tenant, Context ctx, Iterable<long[]> sums, Collector<UsdTenantCost> out) {
            for (long[] s : sums) {
                UsdTenantCost c = new UsdTenantCost();
                c.tenantId = tenant;
                c.windowStart = ctx.window().getStart();
                c.windowEnd = ctx.window().getEnd();
                c.usd = s[0] / 1e9;
                c.requests = s[1];
                windows.add(1L);
                nanoUsd.add(s[0]);
                out.collect(c);
            }
        }
    }
}
