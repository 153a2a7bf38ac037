package dev.flinkops.testjob;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * A Java port of the local engine's GatewayMeter generator ({@code engine/local/gatewaymeter/generator.ts},
 * {@code GatewayEventReader}) for one source subtask, unthrottled (it produces as fast as the pipeline takes events,
 * as the local benchmark runs it) and with no traffic phases.
 *
 * <p>Same random generator (mulberry32, seeded with {@code deriveSeed(seed, "gatewaymeter-source-<i>")}), same
 * sequence of draws, same calendar queue of 10 ms buckets and same JSON lines, so with the same seed, rate, event
 * count, start time and tenant/model weights it yields the same events in the same order as the TypeScript reader
 * (the math functions used are {@link StrictMath}'s fdlibm, like V8's).
 *
 * <p>Requests start at a steady event-time rate ({@code rate / meanEventsPerRequest}); each spreads its events
 * (RequestStarted, 2-6 TokenGenerated, maybe ToolCalled / AgentStepCompleted / ModelError, RequestCompleted) over its
 * latency; events are emitted a little after their event time (bounded jitter, order kept within a request), a few
 * completions much later (late data); some requests never complete (abandoned), some completions have no start
 * (orphans).
 */
final class GatewayTraffic {

    /** Receives one JSON line and its event time (the record timestamp). */
    interface Emitter {
        void emit(String line, long timestamp);
    }

    /** Generator settings: the local engine's {@code GeneratorConfig} defaults, as the benchmark uses them. */
    static final class Config implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        int seed = 42;
        /** Events per second of event time, over all subtasks. */
        double rate = 100_000d;
        /** Total events over all subtasks. */
        long events = 1_000_000L;
        /** Event time of the first request (ms). The local benchmark's clock starts at 2026-01-01T00:00:00Z. */
        long startTime = 1_767_225_600_000L;
        /** Tenant and model weights (insertion order matters: it is the order of the cumulative table). */
        String[] tenants = {"acme", "globex", "initech", "umbrella", "hooli", "stark", "wonka", "tyrell"};
        double[] tenantWeights = {1, 1, 1, 1, 1, 1, 1, 1};
        String[] models = {"model-a", "model-b"};
        double[] modelWeights = {1, 1};
        double maxOutOfOrdernessMs = 1000;
        double lateFraction = 0.002;
        int[] lateDelayMs = {20_000, 150_000};
        double abandonFraction = 0.005;
        double orphanFraction = 0.002;
        int[] tokenEvents = {2, 6};
        double toolCallProbability = 0.25;
        double agentStepProbability = 0.2;
        double modelErrorProbability = 0.05;
        int[] latencyMs = {200, 8000};
        int[] promptTokens = {50, 4000};
        int[] completionTokens = {20, 1500};

        /** Mean events per request slot (the same sum, in the same order, as {@code meanEventsPerRequest}). */
        double meanEventsPerRequest() {
            double tokens = (tokenEvents[0] + tokenEvents[1]) / 2d;
            return 1 + tokens + toolCallProbability + agentStepProbability + modelErrorProbability
                    + (1 - abandonFraction) + orphanFraction;
        }
    }

    // ------------------------------------------------------------ randomness ---

    /** mulberry32 over a 32-bit state: floats in [0, 1). */
    static final class Random {
        private int a;

        Random(int seed) {
            this.a = seed;
        }

        double next() {
            a = a + 0x6d2b79f5;
            int t = (a ^ (a >>> 15)) * (1 | a);
            t = (t + ((t ^ (t >>> 7)) * (61 | t))) ^ t;
            return ((t ^ (t >>> 14)) & 0xffffffffL) / 4294967296d;
        }
    }

    /** {@code deriveSeed(seed, label)} of {@code engine/local/time/random.ts}. */
    static int deriveSeed(int seed, String label) {
        int h = seed;
        for (int i = 0; i < label.length(); i++) {
            h = (h ^ label.charAt(i)) * 0x5bd1e995 + 0x9e3779b9;
        }
        h ^= h >>> 15;
        return h * 0x85ebca6b;
    }

    private static String hex(double n, int width) {
        String s = Long.toHexString((long) Math.floor(n));
        if (s.length() >= width) {
            return s;
        }
        StringBuilder b = new StringBuilder(width);
        for (int i = s.length(); i < width; i++) {
            b.append('0');
        }
        return b.append(s).toString();
    }

    /** {@code randomUuid(random)}: a UUID v4 string, 6 draws. */
    static String randomUuid(Random r) {
        String a = hex(r.next() * 0x100000000L, 8);
        String b = hex(r.next() * 0x10000, 4);
        String c = hex(0x4000 | (int) (r.next() * 0x1000), 4);
        String d = hex(0x8000 | (int) (r.next() * 0x4000), 4);
        String e = hex(r.next() * 0x1000000, 6) + hex(r.next() * 0x1000000, 6);
        return a + "-" + b + "-" + c + "-" + d + "-" + e;
    }

    static final class WeightedPicker {
        private final String[] names;
        private final double[] cumulative;

        WeightedPicker(String[] names, double[] weights) {
            this.names = names.clone();
            this.cumulative = new double[weights.length];
            double sum = 0;
            for (int i = 0; i < weights.length; i++) {
                sum += weights[i];
                cumulative[i] = sum;
            }
            if (!(sum > 0)) {
                throw new IllegalArgumentException("Weights must not all be zero.");
            }
        }

        String pick(Random random) {
            double x = random.next() * cumulative[cumulative.length - 1];
            int lo = 0;
            int hi = cumulative.length - 1;
            while (lo < hi) {
                int mid = (lo + hi) >> 1;
                if (cumulative[mid] > x) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            return names[lo];
        }
    }

    // ------------------------------------------------------------- requests ---

    static final int TYPE_STARTED = 0;
    static final int TYPE_TOKEN = 1;
    static final int TYPE_TOOL = 2;
    static final int TYPE_STEP = 3;
    static final int TYPE_ERROR = 4;
    static final int TYPE_COMPLETED = 5;
    static final String[] TYPE_NAMES = {
        "RequestStarted", "TokenGenerated", "ToolCalled", "AgentStepCompleted", "ModelError", "RequestCompleted"
    };

    private static final long BUCKET_MS = 10;
    private static final int RING_BUCKETS = 1 << 14;

    /** A request in flight: its events (sorted by event time) and the index of the next one to emit. */
    static final class PendingRequest {
        String id;
        String tenant;
        String model;
        long promptTokens;
        long completionTokens;
        long latency;
        String status;
        int[] types = new int[12];
        long[] ts = new long[12];
        int count;
        int next;

        void push(int type, long at) {
            if (count == types.length) {
                types = java.util.Arrays.copyOf(types, count * 2);
                ts = java.util.Arrays.copyOf(ts, count * 2);
            }
            types[count] = type;
            ts[count] = at;
            count++;
        }

        /** Inserts keeping the events sorted by time (stable). */
        void insertByTime(int type, long at) {
            push(type, at);
            int i = count - 1;
            while (i > 1 && ts[i - 1] > at) {
                types[i] = types[i - 1];
                ts[i] = ts[i - 1];
                i--;
            }
            types[i] = type;
            ts[i] = at;
        }
    }

    // ---------------------------------------------------------------- reader ---

    private final Config c;
    private final Random random;
    private final double interval;
    private final long startTime;
    private final double stagger;
    private long nextStartIndex;
    private double nextStartAt;
    @SuppressWarnings("unchecked")
    private final ArrayList<PendingRequest>[] ring = new ArrayList[RING_BUCKETS];
    private final Map<Long, ArrayList<PendingRequest>> overflow = new HashMap<>();
    private long cursor;
    private int cursorPos;
    private long pending;
    private final WeightedPicker modelPicker;
    private final WeightedPicker tenantPicker;
    private final long budget;
    private long scheduled;
    private long emitted;
    private boolean startsExhausted;
    private final StringBuilder line = new StringBuilder(256);

    GatewayTraffic(Config config, int subtaskIndex, int parallelism) {
        this.c = config;
        this.random = new Random(deriveSeed(config.seed, "gatewaymeter-source-" + subtaskIndex));
        double requestRate = (config.rate / config.meanEventsPerRequest()) / parallelism;
        this.interval = 1000d / requestRate;
        this.startTime = config.startTime;
        this.stagger = (interval * subtaskIndex) / parallelism;
        this.nextStartAt = startTime + stagger;
        this.cursor = Math.floorDiv(startTime, BUCKET_MS);
        for (int i = 0; i < RING_BUCKETS; i++) {
            ring[i] = new ArrayList<>();
        }
        this.modelPicker = new WeightedPicker(config.models, config.modelWeights);
        this.tenantPicker = new WeightedPicker(config.tenants, config.tenantWeights);
        long base = config.events / parallelism;
        this.budget = base + (subtaskIndex < config.events % parallelism ? 1 : 0);
        if (budget == 0) {
            startsExhausted = true;
        }
    }

    long emitted() {
        return emitted;
    }

    private void enqueue(PendingRequest request, double emitAt) {
        long index = (long) Math.floor(emitAt / BUCKET_MS);
        if (index < cursor) {
            index = cursor;
        }
        ArrayList<PendingRequest> bucket;
        if (index - cursor < RING_BUCKETS) {
            bucket = ring[(int) (index & (RING_BUCKETS - 1))];
        } else {
            bucket = overflow.computeIfAbsent(index, k -> new ArrayList<>());
        }
        bucket.add(request);
        pending++;
    }

    /**
     * Emits at most one event. Returns true if an event was emitted (more may follow), false at the end of the
     * input.
     */
    boolean emitNext(Emitter out) {
        for (;;) {
            long bucketEnd = (cursor + 1) * BUCKET_MS;
            // Requests starting before the end of the current bucket go in first: their events may land in it.
            while (!startsExhausted && nextStartAt < bucketEnd) {
                startRequest(nextStartAt);
            }
            ArrayList<PendingRequest> bucket = ring[(int) (cursor & (RING_BUCKETS - 1))];
            if (cursorPos < bucket.size()) {
                emitEvent(bucket.get(cursorPos), out);
                cursorPos++;
                return true;
            }
            bucket.clear();
            cursorPos = 0;
            if (pending == 0 && startsExhausted) {
                return false;
            }
            cursor++;
            ArrayList<PendingRequest> spilled = overflow.remove(cursor + RING_BUCKETS - 1);
            if (spilled != null) {
                ring[(int) ((cursor + RING_BUCKETS - 1) & (RING_BUCKETS - 1))].addAll(spilled);
            }
            if (pending == 0 && !startsExhausted && nextStartAt >= (cursor + 1) * BUCKET_MS) {
                // Nothing pending: jump straight to the bucket of the next start.
                cursor = Math.max(cursor, (long) Math.floor(nextStartAt / BUCKET_MS));
            }
        }
    }

    private void emitEvent(PendingRequest request, Emitter out) {
        int i = request.next++;
        int type = request.types[i];
        long ts = request.ts[i];
        StringBuilder b = line;
        b.setLength(0);
        b.append("{\"event_type\":\"").append(TYPE_NAMES[type])
                .append("\",\"request_id\":\"").append(request.id)
                .append("\",\"tenant_id\":\"").append(request.tenant)
                .append("\",\"model\":\"").append(request.model)
                .append("\",\"ts\":").append(ts)
                .append(",\"payload\":");
        if (type == TYPE_STARTED) {
            b.append("{\"prompt_tokens\":").append(request.promptTokens).append('}');
        } else if (type == TYPE_COMPLETED) {
            b.append("{\"latency_ms\":").append(request.latency)
                    .append(",\"completion_tokens\":").append(request.completionTokens)
                    .append(",\"status\":\"").append(request.status).append("\"}");
        } else {
            b.append("{}");
        }
        b.append('}');
        pending--;
        emitted++;
        out.emit(b.toString(), ts);
    }

    private long between(int[] range) {
        return range[0] + (long) Math.floor(random.next() * (range[1] - range[0] + 1));
    }

    private void startRequest(double t0) {
        Random rnd = random;
        nextStartIndex++;
        nextStartAt = startTime + stagger + nextStartIndex * interval;
        long start = (long) Math.floor(t0);
        boolean orphan = rnd.next() < c.orphanFraction;
        boolean abandoned = rnd.next() < c.abandonFraction;
        long latency = Math.round(StrictMath.exp(StrictMath.log(c.latencyMs[0])
                + rnd.next() * (StrictMath.log(c.latencyMs[1]) - StrictMath.log(c.latencyMs[0]))));
        long tokens = between(c.tokenEvents);
        boolean error = rnd.next() < c.modelErrorProbability;
        boolean tool = rnd.next() < c.toolCallProbability;
        boolean step = rnd.next() < c.agentStepProbability;
        PendingRequest r = new PendingRequest();
        r.push(TYPE_STARTED, start);
        for (long k = 1; k <= tokens; k++) {
            r.insertByTime(TYPE_TOKEN, start + (latency * k) / (tokens + 1));
        }
        if (tool) {
            r.insertByTime(TYPE_TOOL, start + (long) Math.floor(latency * rnd.next()));
        }
        if (step) {
            r.insertByTime(TYPE_STEP, start + (long) Math.floor(latency * rnd.next()));
        }
        if (error) {
            r.insertByTime(TYPE_ERROR, start + (long) Math.floor(latency * 0.95));
        }
        if (!abandoned) {
            r.push(TYPE_COMPLETED, start + latency);
        }
        long remaining = budget - scheduled - (orphan ? 1 : 0);
        if (r.count >= remaining) {
            // The last request fits the event budget exactly: trim its middle, keep the completion if there is room.
            startsExhausted = true;
            if (remaining <= 0) {
                r.count = 0;
            } else if (remaining == 1) {
                r.count = 1;
                r.types[0] = TYPE_STARTED;
                r.ts[0] = start;
            } else if (r.count > remaining) {
                boolean keepLast = r.types[r.count - 1] == TYPE_COMPLETED;
                int headCount = (int) (keepLast ? remaining - 1 : remaining);
                long lastTs = r.ts[r.count - 1];
                r.count = headCount;
                if (keepLast) {
                    r.push(TYPE_COMPLETED, lastTs);
                }
            }
        }
        if (r.count > 0) {
            r.id = randomUuid(rnd);
            r.tenant = tenantPicker.pick(rnd);
            r.model = modelPicker.pick(rnd);
            r.promptTokens = between(c.promptTokens);
            r.completionTokens = between(c.completionTokens);
            r.latency = latency;
            r.status = error ? "error" : "ok";
            boolean late = r.types[r.count - 1] == TYPE_COMPLETED && rnd.next() < c.lateFraction;
            double last = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < r.count; i++) {
                double at = r.ts[i] + rnd.next() * c.maxOutOfOrdernessMs;
                if (late && i == r.count - 1) {
                    at = r.ts[i] + between(c.lateDelayMs);
                }
                if (at < last) {
                    at = last;
                }
                last = at;
                enqueue(r, at);
            }
            scheduled += r.count;
        }
        if (orphan && scheduled < budget) {
            long at = start + (long) Math.floor(rnd.next() * 1000);
            PendingRequest o = new PendingRequest();
            o.id = randomUuid(rnd);
            o.tenant = tenantPicker.pick(rnd);
            o.model = modelPicker.pick(rnd);
            o.promptTokens = 0;
            o.completionTokens = between(c.completionTokens);
            o.latency = between(c.latencyMs);
            o.status = "ok";
            o.push(TYPE_COMPLETED, at);
            enqueue(o, at + rnd.next() * c.maxOutOfOrdernessMs);
            scheduled++;
        }
        if (scheduled >= budget) {
            startsExhausted = true;
        }
    }

    /** Prints the first N lines (for comparing with the TypeScript generator). */
    public static void main(String[] args) {
        Config config = new Config();
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        if (args.length > 1) {
            config.events = Long.parseLong(args[1]);
        }
        GatewayTraffic g = new GatewayTraffic(config, 0, 1);
        int[] printed = {0};
        long[] hash = {1125899906842597L};
        while (g.emitNext((l, ts) -> {
            if (printed[0]++ < n) {
                System.out.println(ts + " " + l);
            }
            for (int i = 0; i < l.length(); i++) {
                hash[0] = 31 * hash[0] + l.charAt(i);
            }
        })) {
            // drain
        }
        System.out.println("events=" + g.emitted() + " hash=" + Long.toHexString(hash[0]));
    }
}
