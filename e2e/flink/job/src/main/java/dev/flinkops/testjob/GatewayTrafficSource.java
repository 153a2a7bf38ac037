package dev.flinkops.testjob;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The GatewayMeter generator ({@link GatewayTraffic}) as a bounded FLIP-27 source of JSON lines, each with its
 * event time as record timestamp (like a Kafka record's CreateTime): one split per source subtask, each producing
 * its share of {@code events} as fast as the pipeline takes them (no throttling).
 *
 * <p>Not restorable from a checkpoint: a restarted reader starts its split over (the throughput job runs without
 * checkpoints).
 */
final class GatewayTrafficSource implements Source<String, GatewayTrafficSource.Split, Integer> {
    private static final long serialVersionUID = 1L;

    private final GatewayTraffic.Config config;

    GatewayTrafficSource(GatewayTraffic.Config config) {
        this.config = config;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<String, Split> createReader(SourceReaderContext readerContext) {
        return new Reader(config);
    }

    @Override
    public SplitEnumerator<Split, Integer> createEnumerator(SplitEnumeratorContext<Split> enumContext) {
        return new Enumerator(enumContext);
    }

    @Override
    public SplitEnumerator<Split, Integer> restoreEnumerator(SplitEnumeratorContext<Split> enumContext, Integer checkpoint) {
        return new Enumerator(enumContext);
    }

    @Override
    public SimpleVersionedSerializer<Split> getSplitSerializer() {
        return new SplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<Integer> getEnumeratorCheckpointSerializer() {
        return new IntSerializer();
    }

    /** The traffic of one source subtask: its index and the source parallelism. */
    static final class Split implements SourceSplit {
        final int subtask;
        final int parallelism;

        Split(int subtask, int parallelism) {
            this.subtask = subtask;
            this.parallelism = parallelism;
        }

        @Override
        public String splitId() {
            return "gateway-traffic-" + subtask + "-of-" + parallelism;
        }
    }

    /** Gives every reader its own split as it registers, then no more. */
    static final class Enumerator implements SplitEnumerator<Split, Integer> {
        private final SplitEnumeratorContext<Split> context;

        Enumerator(SplitEnumeratorContext<Split> context) {
            this.context = context;
        }

        @Override
        public void start() {}

        @Override
        public void handleSplitRequest(int subtaskId, String requesterHostname) {}

        @Override
        public void addSplitsBack(List<Split> splits, int subtaskId) {
            // re-assigned when the reader registers again (addReader)
        }

        @Override
        public void addReader(int subtaskId) {
            context.assignSplit(new Split(subtaskId, context.currentParallelism()), subtaskId);
            context.signalNoMoreSplits(subtaskId);
        }

        @Override
        public Integer snapshotState(long checkpointId) {
            return 0;
        }

        @Override
        public void close() {}
    }

    /** Emits one event per {@code pollNext}, like Flink's own iterator sources. */
    static final class Reader implements SourceReader<String, Split> {
        private final GatewayTraffic.Config config;
        private GatewayTraffic traffic;
        private Split split;
        private boolean noMoreSplits;
        private boolean finished;
        private CompletableFuture<Void> available = new CompletableFuture<>();
        private ReaderOutput<String> output;
        private final GatewayTraffic.Emitter emitter = (line, ts) -> output.collect(line, ts);

        Reader(GatewayTraffic.Config config) {
            this.config = config;
        }

        @Override
        public void start() {}

        @Override
        public InputStatus pollNext(ReaderOutput<String> out) {
            if (traffic != null && !finished) {
                output = out;
                if (traffic.emitNext(emitter)) {
                    return InputStatus.MORE_AVAILABLE;
                }
                finished = true;
            }
            if (noMoreSplits && (traffic == null || finished)) {
                return InputStatus.END_OF_INPUT;
            }
            if (available.isDone()) {
                available = new CompletableFuture<>();
            }
            return InputStatus.NOTHING_AVAILABLE;
        }

        @Override
        public List<Split> snapshotState(long checkpointId) {
            return split == null || finished ? Collections.emptyList() : Collections.singletonList(split);
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return available;
        }

        @Override
        public void addSplits(List<Split> splits) {
            for (Split s : splits) {
                if (traffic != null) {
                    throw new IllegalStateException("one split per reader, got another: " + s.splitId());
                }
                split = s;
                traffic = new GatewayTraffic(config, s.subtask, s.parallelism);
            }
            available.complete(null);
        }

        @Override
        public void notifyNoMoreSplits() {
            noMoreSplits = true;
            available.complete(null);
        }

        @Override
        public void close() {}
    }

    static final class SplitSerializer implements SimpleVersionedSerializer<Split> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(Split split) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(8);
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeInt(split.subtask);
                out.writeInt(split.parallelism);
            }
            return bytes.toByteArray();
        }

        @Override
        public Split deserialize(int version, byte[] serialized) throws IOException {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
                return new Split(in.readInt(), in.readInt());
            }
        }
    }

    static final class IntSerializer implements SimpleVersionedSerializer<Integer> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(Integer value) {
            int v = value == null ? 0 : value;
            return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
        }

        @Override
        public Integer deserialize(int version, byte[] b) {
            return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
        }
    }
}
