package dev.flinkops.testjob;

/** The {@code open} ValueState of a request in {@code assemble} (a Flink POJO). */
public class OpenRequest {
    public String tenantId;
    public String model;
    public long startTs;
    public long promptTokens;
    public int toolCalls;
    public int agentSteps;
    public int errors;

    public OpenRequest() {}
}
