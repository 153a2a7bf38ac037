package dev.flinkops.testjob;

/** Deterministic mapping from a sequence number to a gateway event. */
final class Events {
    /** The hot tenant. */
    static final String HOT_TENANT = "acme";

    /**
     * The other tenants. With max parallelism 128 and parallelism 2, "acme" and the first five
     * land on subtask 0 of a keyed operator and the last five on subtask 1, so subtask 0 gets
     * ~70% of the traffic with the default hot share of 0.4.
     */
    static final String[] OTHER_TENANTS = {
        "globex", "umbrella", "hooli", "stark", "wonka",
        "initech", "tyrell", "soylent", "massive", "pied-piper"
    };

    static final String[] MODELS = {"gpt-4o", "claude-sonnet", "llama-3-70b", "mistral-large", "gemini-flash"};

    private Events() {}

    /** SplitMix64 finalizer: a well-mixed, deterministic hash of the sequence number. */
    static long mix(long x) {
        long z = x + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Uniform double in [0, 1) derived from the sequence number and a salt. */
    static double unit(long seq, long salt) {
        return (mix(seq * 31 + salt) >>> 11) * 0x1.0p-53;
    }

    static String tenantFor(long seq, double hotShare) {
        double u = unit(seq, 1);
        if (u < hotShare) {
            return HOT_TENANT;
        }
        int i = (int) ((u - hotShare) / (1d - hotShare) * OTHER_TENANTS.length);
        return OTHER_TENANTS[Math.min(i, OTHER_TENANTS.length - 1)];
    }

    /** Event time: "now" minus up to 1.5 s of deterministic out-of-orderness. */
    static long eventTimeFor(long seq, long nowMillis) {
        return nowMillis - (long) (unit(seq, 2) * 1500d);
    }

    static GatewayEvent create(long seq, long eventTime, double hotShare) {
        String tenant = tenantFor(seq, hotShare);
        String model = MODELS[(int) (unit(seq, 3) * MODELS.length)];
        int tokens = 20 + (int) (unit(seq, 4) * 4000d);
        String requestId = String.format("req-%012x", seq);
        return new GatewayEvent(tenant, requestId, model, tokens, eventTime);
    }
}
