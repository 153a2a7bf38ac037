package dev.flinkops.testjob;

/**
 * One GatewayMeter event as {@code parse} produces it: {@code Event(event_type, request_id, tenant_id, model, ts,
 * payload)} of {@code engine/local/gatewaymeter/events.ts} (a Flink POJO; the optional payload fields are null when
 * absent).
 */
public class MeterEvent {
    public String eventType;
    public String requestId;
    public String tenantId;
    public String model;
    /** Event time, ms. */
    public long ts;
    /** RequestStarted. */
    public Long promptTokens;
    /** RequestCompleted. */
    public Long latencyMs;
    public Long completionTokens;
    public String status;

    public MeterEvent() {}

    @Override
    public String toString() {
        return "MeterEvent{" + eventType + ", " + requestId + ", " + tenantId + ", " + model + ", " + ts + "}";
    }
}
