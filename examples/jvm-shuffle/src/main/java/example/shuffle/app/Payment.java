package example.shuffle.app;

/** A payment as sent to the ledger: a plain data holder with public fields, nothing else. */
public final class Payment {
    public long amount;
    public String currency;
    public String reference;

    public Payment(long amount, String currency, String reference) {
        this.amount = amount;
        this.currency = currency;
        this.reference = reference;
    }
}
