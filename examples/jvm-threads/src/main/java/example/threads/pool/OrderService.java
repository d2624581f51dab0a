package example.threads.pool;

import java.util.Locale;
import java.util.concurrent.Future;

/** Places orders: audits the order (in the background) and prints a receipt. */
public class OrderService {
    private final AuditLog audit;

    public OrderService(AuditLog audit) {
        this.audit = audit;
    }

    /** The receipt, and the audit write it queued. */
    public record Placed(String receipt, Future<?> audited) {}

    public Placed place(String customer, long[] cents) {
        long total = 0;
        for (long c : cents) {
            total += c;
        }
        Future<?> audited = audit.record("order " + customer + " " + total);
        String receipt = String.format(Locale.ROOT, "%s owes %d.%02d", customer, total / 100, total % 100);
        return new Placed(receipt, audited);
    }
}
