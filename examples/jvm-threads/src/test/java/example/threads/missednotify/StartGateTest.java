package example.threads.missednotify;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * JUnit 5. Missed notify: two workers wait at a start gate that a loader thread opens once it
 * has read the configuration and built the routing table. The workers are daemons joined with a timeout: a lost notify
 * fails the test, never hangs it.
 */
class StartGateTest {
    private static final int ROUTES = 20_000;

    @Test
    void workersStartWhenTheGateOpens() throws InterruptedException {
        StartGate gate = new StartGate();
        assertTrue(runWorkers(gate::awaitOpen, gate::open), "a worker never saw the gate open");
    }

    @Test
    void workersStartWhenTheLatchedGateOpens() throws InterruptedException {
        LatchedStartGate gate = new LatchedStartGate();
        assertTrue(runWorkers(gate::awaitOpen, gate::open), "a worker never saw the gate open");
    }

    interface Wait {
        void await() throws InterruptedException;
    }

    /** True when both workers got through the gate within 2 s. */
    private static boolean runWorkers(Wait gate, Runnable open) throws InterruptedException {
        boolean[] started = new boolean[2];
        Thread first = worker(gate, started, 0);
        Thread second = worker(gate, started, 1);
        Thread loader = new Thread(() -> {
            Properties config = readConfig();
            Map<String, Integer> routes = routingTable(Integer.parseInt(config.getProperty("workers")));
            if (routes.size() == ROUTES) {
                open.run();
            }
        }, "config-loader");
        loader.setDaemon(true);
        first.start();
        second.start();
        loader.start();
        first.join(2000);
        second.join(2000);
        return started[0] && started[1];
    }

    private static Thread worker(Wait gate, boolean[] started, int index) {
        Thread t = new Thread(() -> {
            try {
                gate.await();
                started[index] = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "worker-" + index);
        t.setDaemon(true);
        return t;
    }

    /** Which worker serves each of the ROUTES queues. */
    private static Map<String, Integer> routingTable(int workers) {
        Map<String, Integer> routes = new HashMap<>();
        for (int i = 0; i < ROUTES; i++) {
            routes.put("queue-" + i, i % workers);
        }
        return routes;
    }

    private static Properties readConfig() {
        Properties p = new Properties();
        try {
            p.load(new StringReader("workers = 4\nqueue = orders\nretry.max = 3\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
