package dev.flinkops.testjob;

/** One metered request of an LLM gateway (a Flink POJO: public fields, no-arg constructor). */
public class GatewayEvent {
    public String tenant;
    public String requestId;
    public String model;
    public int tokens;
    public long eventTime;

    public GatewayEvent() {}

    public GatewayEvent(String tenant, String requestId, String model, int tokens, long eventTime) {
        this.tenant = tenant;
        this.requestId = requestId;
        this.model = model;
        this.tokens = tokens;
        this.eventTime = eventTime;
    }

    @Override
    public String toString() {
        return "GatewayEvent{" + tenant + ", " + requestId + ", " + model + ", " + tokens + ", " + eventTime + "}";
    }
}
