package example.threads.pool;

import static org.junit.Assert.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Test;

/** JUnit 4. A pool task that outlives the test: the audit write runs on the audit log's pool thread. */
public class OrderServiceTest {
    private final AuditLog audit = new AuditLog();

    @After
    public void stopAudit() {
        audit.shutdown();
    }

    @Test
    public void placingAnOrderAuditsIt() {
        OrderService.Placed placed = new OrderService(audit).place("ada", new long[] {1250, 999});
        assertEquals("ada owes 22.49", placed.receipt());
        assertEquals(1, audit.written());
    }

    @Test
    public void placingAnOrderAuditsItOnceTheWriteCompletes() throws Exception {
        OrderService.Placed placed = new OrderService(audit).place("ada", new long[] {1250, 999});
        assertEquals("ada owes 22.49", placed.receipt());
        placed.audited().get(5, TimeUnit.SECONDS);
        assertEquals(1, audit.written());
    }
}
