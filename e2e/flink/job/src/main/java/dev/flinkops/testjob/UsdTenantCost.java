package dev.flinkops.testjob;

/** The sink's row: {@code {"tenant_id", "window_start", "window_end", "usd", "requests"}} (a Flink POJO). */
public class UsdTenantCost {
    public String tenantId;
    public long windowStart;
    public long windowEnd;
    public double usd;
    public long requests;

    public UsdTenantCost() {}

    @Override
    public String toString() {
        return "UsdTenantCost{" + tenantId + ", [" + windowStart + "," + windowEnd + "), " + usd + " USD, " + requests + " req}";
    }
}
