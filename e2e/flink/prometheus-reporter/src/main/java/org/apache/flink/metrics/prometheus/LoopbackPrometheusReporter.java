package org.apache.flink.metrics.prometheus;

import io.prometheus.client.exporter.HTTPServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Flink's PrometheusReporter, bound to one address. Flink's own binds every interface
 * ({@code new InetSocketAddress(port)}, no host option up to 2.3), which the tests must not do.
 * It lives in the reporter's package and plugin folder to reach the collector registry the
 * reporter fills (package-private in 1.20 and 2.x); everything else is Flink's reporter as is.
 */
public class LoopbackPrometheusReporter extends AbstractPrometheusReporter {

    private HTTPServer httpServer;

    LoopbackPrometheusReporter(String host, List<Integer> ports) {
        IOException lastFailure = null;
        for (int port : ports) {
            try {
                httpServer = new HTTPServer(new InetSocketAddress(host, port), registry);
                // flink.sh reads this line to learn each process's endpoint
                log.info("Started PrometheusReporter HTTP server on {}:{}.", host, port);
                return;
            } catch (IOException e) {
                // taken by another process of the cluster: the next port of the list
                lastFailure = e;
            }
        }
        throw new RuntimeException(
                "Could not start PrometheusReporter HTTP server on " + host + " at any of " + ports,
                lastFailure);
    }

    @Override
    public void close() {
        if (httpServer != null) {
            httpServer.stop();
        }
        super.close();
    }
}
