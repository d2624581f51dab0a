package example.threads.missednotify;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/**
 * JUnit 4. Missed notify: a consumer thread waits for the result a producer thread publishes.
 * The consumer is a daemon joined with a timeout, so a lost notify fails the test instead of
 * hanging the JVM.
 */
public class ResultSlotTest {
    @Test
    public void consumerReceivesTheReport() throws InterruptedException {
        ResultSlot slot = new ResultSlot();
        String[] received = new String[1];
        Thread consumer = daemon(() -> received[0] = slot.take(), "consumer");
        Thread producer = daemon(() -> slot.publish(report()), "producer");
        consumer.start();
        producer.start();
        consumer.join(2000);
        assertEquals("3 orders, 2 shipped", received[0]);
    }

    @Test
    public void consumerReceivesTheReportWaitingInALoop() throws InterruptedException {
        GuardedResultSlot slot = new GuardedResultSlot();
        String[] received = new String[1];
        Thread consumer = daemon(() -> received[0] = slot.take(), "consumer");
        Thread producer = daemon(() -> slot.publish(report()), "producer");
        consumer.start();
        producer.start();
        consumer.join(2000);
        assertEquals("3 orders, 2 shipped", received[0]);
    }

    private static String report() {
        int[] shipped = {1, 0, 1};
        int count = 0;
        for (int s : shipped) {
            count += s;
        }
        return shipped.length + " orders, " + count + " shipped";
    }

    interface Body {
        void run() throws InterruptedException;
    }

    private static Thread daemon(Body body, String name) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name);
        t.setDaemon(true);
        return t;
    }
}
