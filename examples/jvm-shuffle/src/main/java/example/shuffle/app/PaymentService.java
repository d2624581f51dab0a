package example.shuffle.app;

/** Takes card payments. The annotations feed the service catalogue and the audit log. */
@Owner("payments")
@Audited
@Since("2.1")
public final class PaymentService {
    public String charge(String card, long cents) {
        return "charged " + cents + " to " + card.substring(card.length() - 4);
    }
}
