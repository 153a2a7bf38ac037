package org.apache.flink.metrics.prometheus;

import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * {@code metrics.reporter.<name>.factory.class} for {@link LoopbackPrometheusReporter}. Options:
 * {@code host} (default 127.0.0.1) and {@code port}: a list of ports and ranges as Flink's reporter
 * takes ("9249", "9250-9260", "41001,41002"); each process binds the first free one.
 */
public class LoopbackPrometheusReporterFactory implements MetricReporterFactory {

    @Override
    public MetricReporter createMetricReporter(Properties properties) {
        MetricConfig config = (MetricConfig) properties;
        String host = config.getString("host", "127.0.0.1");
        return new LoopbackPrometheusReporter(host, parsePorts(config.getString("port", "9249")));
    }

    static List<Integer> parsePorts(String spec) {
        List<Integer> ports = new ArrayList<>();
        for (String part : spec.split(",")) {
            String p = part.trim();
            int dash = p.indexOf('-');
            if (dash < 0) {
                ports.add(Integer.parseInt(p));
            } else {
                int from = Integer.parseInt(p.substring(0, dash).trim());
                int to = Integer.parseInt(p.substring(dash + 1).trim());
                for (int port = from; port <= to; port++) {
                    ports.add(port);
                }
            }
        }
        if (ports.isEmpty()) {
            throw new IllegalArgumentException("no port in '" + spec + "'");
        }
        return ports;
    }
}
