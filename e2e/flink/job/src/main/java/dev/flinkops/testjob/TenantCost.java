package dev.flinkops.testjob;

/** Sum of one tenant's traffic in one window (a Flink POJO). */
public class TenantCost {
    public String tenant;
    public long windowStart;
    public long windowEnd;
    public long requests;
    public long tokens;

    public TenantCost() {}

    @Override
    public String toString() {
        return "TenantCost{" + tenant + ", [" + windowStart + "," + windowEnd + "), " + requests + " req, " + tokens + " tok}";
    }
}
