package dev.flinkops.testjob;

import java.io.Serializable;
import java.util.concurrent.locks.LockSupport;

/**
 * Spends a fixed amount of wall-clock time per record by parking the thread (not spinning), so a
 * paced operator caps its throughput at 1e9 / costNanos records/s while using almost no CPU.
 * It parks only when at least 1 ms ahead of schedule; up to 20 ms of credit make up for late
 * wake-ups on a busy machine, so the average rate holds.
 */
final class Pacer implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final long MIN_PARK_NANOS = 1_000_000L;
    private static final long MAX_CREDIT_NANOS = 20_000_000L;

    private final long costNanos;
    private transient long next;
    private transient boolean started;

    Pacer(long costNanos) {
        this.costNanos = Math.max(0L, costNanos);
    }

    static Pacer perSecond(double recordsPerSecond) {
        return new Pacer(recordsPerSecond <= 0 ? 0L : (long) (1_000_000_000d / recordsPerSecond));
    }

    void acquire() throws InterruptedException {
        if (costNanos == 0L) {
            return;
        }
        long now = System.nanoTime();
        if (!started) {
            started = true;
            next = now;
        } else if (next - (now - MAX_CREDIT_NANOS) < 0) {
            next = now - MAX_CREDIT_NANOS;
        }
        next += costNanos;
        if (next - now >= MIN_PARK_NANOS) {
            long remaining;
            while ((remaining = next - System.nanoTime()) > 0) {
                LockSupport.parkNanos(remaining);
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        }
    }
}
