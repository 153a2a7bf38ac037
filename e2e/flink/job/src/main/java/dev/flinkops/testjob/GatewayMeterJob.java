package dev.flinkops.testjob;

import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * GatewayMeter-like test job for the Flink Ops Console's end-to-end tests.
 *
 * <pre>
 *   events (sequence source, watermarks) -> parse (rate-limited map to GatewayEvent)
 *     -> keyBy(tenant) -> throttle (fixed time per record: the hot tenant's subtask saturates)
 *     -> keyBy(tenant) -> tenant-cost (10 s tumbling event-time window, sum per tenant)
 *     -> sink (discarding)
 * </pre>
 *
 * <p>Program arguments (all optional): {@code --rate <events/s>} total target source rate
 * (default 2000), {@code --hot-share <0..1>} share of the hot tenant "acme" (default 0.4),
 * {@code --work-us <micros>} time the throttle spends per record (default 5e6 / rate, i.e. each
 * throttle subtask can take 20% of the source rate; subtask 0 gets ~70% of the traffic), {@code --window-s <seconds>} (default 10),
 * {@code --parallelism <n>} (default: the cluster's / the REST run request's parallelism),
 * {@code --tenant-cost-parallelism <n>} tenant-cost's own parallelism, which a job parallelism does not override
 * (default: none, it runs at the job's parallelism chained with the sink).
 *
 * <p>Uses only DataStream APIs present in both Flink 1.20.x and 2.x.
 */
public final class GatewayMeterJob {

    public static final String JOB_NAME = "gatewaymeter-test";

    private GatewayMeterJob() {}

    public static void main(String[] args) throws Exception {
        double rate = 2000d;
        double hotShare = 0.4d;
        long workMicros = -1L;
        long windowSeconds = 10L;
        int parallelism = -1;
        int tenantCostParallelism = -1;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--rate": rate = Double.parseDouble(require(a, v)); i++; break;
                case "--hot-share": hotShare = Double.parseDouble(require(a, v)); i++; break;
                case "--work-us": workMicros = Long.parseLong(require(a, v)); i++; break;
                case "--window-s": windowSeconds = Long.parseLong(require(a, v)); i++; break;
                case "--parallelism": parallelism = Integer.parseInt(require(a, v)); i++; break;
                case "--tenant-cost-parallelism": tenantCostParallelism = Integer.parseInt(require(a, v)); i++; break;
                default: throw new IllegalArgumentException("unknown argument: " + a);
            }
        }
        if (!(rate > 0)) {
            throw new IllegalArgumentException("--rate must be > 0");
        }
        if (!(hotShare >= 0d && hotShare <= 1d)) {
            throw new IllegalArgumentException("--hot-share must be within [0, 1]");
        }
        if (workMicros < 0) {
            workMicros = Math.round(5_000_000d / rate);
        }

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setMaxParallelism(128);
        env.enableCheckpointing(10_000L);
        if (parallelism > 0) {
            env.setParallelism(parallelism);
        }

        WatermarkStrategy<Long> watermarks = WatermarkStrategy
                .<Long>forBoundedOutOfOrderness(Duration.ofSeconds(2))
                .withTimestampAssigner(new SequenceTimestamps());

        DataStream<Long> sequence = env
                .fromSource(new NumberSequenceSource(0L, Long.MAX_VALUE), watermarks, "events")
                .uid("events")
                .name("events");

        DataStream<GatewayEvent> events = sequence
                .process(new RateLimitedParse(rate, hotShare))
                .uid("parse")
                .name("parse");

        DataStream<GatewayEvent> throttled = events
                .keyBy(new TenantKey())
                .map(new Throttle(workMicros))
                .uid("throttle")
                .name("throttle");

        SingleOutputStreamOperator<TenantCost> costs = throttled
                .keyBy(new TenantKey())
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(windowSeconds)))
                .aggregate(new SumCost(), new EmitTenantCost())
                .uid("tenant-cost")
                .name("tenant-cost");
        if (tenantCostParallelism > 0) {
            costs.setParallelism(tenantCostParallelism);
        }

        costs.sinkTo(new DiscardingSink<TenantCost>())
                .uid("sink")
                .name("sink");

        env.execute(JOB_NAME);
    }

    private static String require(String name, String value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return value;
    }

    /** Event time of a sequence number: emission time minus a deterministic jitter. */
    static final class SequenceTimestamps implements SerializableTimestampAssigner<Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public long extractTimestamp(Long seq, long recordTimestamp) {
            return Events.eventTimeFor(seq, System.currentTimeMillis());
        }
    }

    /** Maps sequence numbers to events, at most {@code rate / parallelism} records/s per subtask. */
    static final class RateLimitedParse extends ProcessFunction<Long, GatewayEvent> {
        private static final long serialVersionUID = 1L;
        private final double rate;
        private final double hotShare;
        private transient Pacer pacer;

        RateLimitedParse(double rate, double hotShare) {
            this.rate = rate;
            this.hotShare = hotShare;
        }

        @Override
        public void open(OpenContext openContext) {
            int subtasks = Math.max(1, getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks());
            pacer = Pacer.perSecond(rate / subtasks);
        }

        @Override
        public void processElement(Long seq, Context ctx, Collector<GatewayEvent> out) throws Exception {
            pacer.acquire();
            Long ts = ctx.timestamp();
            out.collect(Events.create(seq, ts != null ? ts : System.currentTimeMillis(), hotShare));
        }
    }

    /**
     * Spends a fixed time per record (sleeping), so the hot tenant's subtask is saturated. Its {@code tenantsSeen}
     * gauge lists the keys this subtask received: where Flink routed each tenant, for the console's rescale plan test.
     */
    static final class Throttle extends RichMapFunction<GatewayEvent, GatewayEvent> {
        private static final long serialVersionUID = 1L;
        private final long workMicros;
        private transient Pacer pacer;
        private transient Set<String> tenantsSeen;

        Throttle(long workMicros) {
            this.workMicros = workMicros;
        }

        @Override
        public void open(OpenContext openContext) {
            pacer = new Pacer(workMicros * 1000L);
            tenantsSeen = ConcurrentHashMap.newKeySet();
            getRuntimeContext().getMetricGroup().gauge("tenantsSeen", (Gauge<String>) () -> String.join(",", new TreeSet<>(tenantsSeen)));
        }

        @Override
        public GatewayEvent map(GatewayEvent event) throws Exception {
            tenantsSeen.add(event.tenant);
            pacer.acquire();
            return event;
        }
    }

    static final class TenantKey implements KeySelector<GatewayEvent, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(GatewayEvent event) {
            return event.tenant;
        }
    }

    /** Accumulator: {requests, tokens}. */
    static final class SumCost implements AggregateFunction<GatewayEvent, long[], long[]> {
        private static final long serialVersionUID = 1L;

        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(GatewayEvent event, long[] acc) {
            acc[0] += 1;
            acc[1] += event.tokens;
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

    static final class EmitTenantCost extends ProcessWindowFunction<long[], TenantCost, String, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(String tenant, Context ctx, Iterable<long[]> sums, Collector<TenantCost> out) {
            for (long[] s : sums) {
                TenantCost c = new TenantCost();
                c.tenant = tenant;
                c.windowStart = ctx.window().getStart();
                c.windowEnd = ctx.window().getEnd();
                c.requests = s[0];
                c.tokens = s[1];
                out.collect(c);
            }
        }
    }
}
