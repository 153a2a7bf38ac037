package dev.flinkops.testjob;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;

/**
 * State that never stops growing, on RocksDB with its native metrics on: suspect B of the State view (keys that never
 * expire) on a real Flink, with figures the test knows.
 *
 * <pre>
 *   keys (sequence source, parallelism 1) -> arrivals (paced: --keys-per-s new keys a second)
 *     -> keyBy(sequence number) -> remember (ValueState "remembered" of --value-bytes bytes per key, no TTL)
 *     -> sink (discarding; nothing reaches it)
 * </pre>
 *
 * <p>Every key arrives once and is kept forever, so the state grows by {@code keys-per-s} keys of one {@code long}
 * (8 bytes) and one {@code byte[value-bytes]} (4 bytes of length + the bytes, random so that no compression helps) a
 * second. Per job, whatever the cluster's configuration: the RocksDB state backend with full (not incremental)
 * checkpoints, so a checkpoint's size is the keys and values themselves (Flink's full snapshot format: a key group
 * prefix, the serialized key, namespace and value, and their lengths; no SST files), a checkpoint every
 * {@code --checkpoint-ms}, deleted when the job is cancelled, and RocksDB's native metrics
 * {@code estimate-num-keys}, {@code estimate-live-data-size}, {@code total-sst-files-size} and
 * {@code block-cache-usage} on.
 *
 * <p>Program arguments (all optional): {@code --keys-per-s} (400), {@code --value-bytes} (256),
 * {@code --checkpoint-ms} (3000), {@code --parallelism} of {@code remember} (2). Uses only DataStream APIs present in
 * both Flink 1.20.x and 2.x; the configuration goes by key, as each version names it.
 */
public final class StateGrowthJob {

    public static final String JOB_NAME = "state-growth-test";

    private StateGrowthJob() {}

    public static void main(String[] args) throws Exception {
        double keysPerSecond = 400d;
        int valueBytes = 256;
        long checkpointMs = 3_000L;
        int parallelism = 2;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--keys-per-s": keysPerSecond = Double.parseDouble(require(a, v)); i++; break;
                case "--value-bytes": valueBytes = Integer.parseInt(require(a, v)); i++; break;
                case "--checkpoint-ms": checkpointMs = Long.parseLong(require(a, v)); i++; break;
                case "--parallelism": parallelism = Integer.parseInt(require(a, v)); i++; break;
                default: throw new IllegalArgumentException("unknown argument: " + a);
            }
        }
        if (!(keysPerSecond > 0)) {
            throw new IllegalArgumentException("--keys-per-s must be > 0");
        }
        if (valueBytes < 1) {
            throw new IllegalArgumentException("--value-bytes must be >= 1");
        }
        if (checkpointMs < 100) {
            throw new IllegalArgumentException("--checkpoint-ms must be >= 100");
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException("--parallelism must be >= 1");
        }

        Map<String, String> conf = new HashMap<>();
        conf.put("state.backend.type", "rocksdb");
        // 2.x's key, then 1.x's: each version ignores the one it does not know
        conf.put("execution.checkpointing.incremental", "false");
        conf.put("state.backend.incremental", "false");
        conf.put("execution.checkpointing.interval", checkpointMs + " ms");
        conf.put("execution.checkpointing.externalized-checkpoint-retention", "DELETE_ON_CANCELLATION");
        conf.put("state.backend.rocksdb.metrics.estimate-num-keys", "true");
        conf.put("state.backend.rocksdb.metrics.estimate-live-data-size", "true");
        conf.put("state.backend.rocksdb.metrics.total-sst-files-size", "true");
        conf.put("state.backend.rocksdb.metrics.block-cache-usage", "true");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(conf));
        env.setMaxParallelism(128);
        env.enableCheckpointing(checkpointMs);

        env.fromSource(new NumberSequenceSource(0L, Long.MAX_VALUE), WatermarkStrategy.noWatermarks(), "keys")
                .setParallelism(1)
                .uid("keys")
                .name("keys")
                .map(new Arrivals(keysPerSecond))
                .setParallelism(1)
                .uid("arrivals")
                .name("arrivals")
                .keyBy(new SequenceKey())
                .process(new Remember(valueBytes))
                .setParallelism(parallelism)
                .uid("remember")
                .name("remember")
                .sinkTo(new DiscardingSink<Long>())
                .setParallelism(parallelism)
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

    /** Lets the sequence through at {@code keysPerSecond}: each number is a new key. */
    static final class Arrivals extends RichMapFunction<Long, Long> {
        private static final long serialVersionUID = 1L;
        private final double keysPerSecond;
        private transient Pacer pacer;

        Arrivals(double keysPerSecond) {
            this.keysPerSecond = keysPerSecond;
        }

        @Override
        public void open(OpenContext openContext) {
            pacer = Pacer.perSecond(keysPerSecond);
        }

        @Override
        public Long map(Long seq) throws Exception {
            pacer.acquire();
            return seq;
        }
    }

    static final class SequenceKey implements KeySelector<Long, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long getKey(Long seq) {
            return seq;
        }
    }

    /** Keeps {@code valueBytes} random bytes for every key it sees, forever (no TTL, never cleared). */
    static final class Remember extends KeyedProcessFunction<Long, Long, Long> {
        private static final long serialVersionUID = 1L;
        private final int valueBytes;
        private transient ValueState<byte[]> remembered;

        Remember(int valueBytes) {
            this.valueBytes = valueBytes;
        }

        @Override
        public void open(OpenContext openContext) {
            remembered = getRuntimeContext().getState(new ValueStateDescriptor<>("remembered", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        }

        @Override
        public void processElement(Long seq, Context ctx, Collector<Long> out) throws Exception {
            byte[] value = new byte[valueBytes];
            new SplittableRandom(seq).nextBytes(value);
            remembered.update(value);
        }
    }
}
