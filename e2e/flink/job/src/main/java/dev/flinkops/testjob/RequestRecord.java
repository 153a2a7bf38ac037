package dev.flinkops.testjob;

/** One request assembled from its events (emitted on completion, or as abandoned by the timeout timer). */
public class RequestRecord {
    public String requestId;
    public String tenantId;
    public String model;
    public long startTs;
    public long endTs;
    public long latencyMs;
    public long promptTokens;
    public long completionTokens;
    /** ok | error | abandoned */
    public String status;
    public int toolCalls;
    public int agentSteps;
    public int errors;

    public RequestRecord() {}
}
