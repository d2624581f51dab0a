package example.shuffle.app;

/**
 * A customer record as exported to CSV. CsvWriter makes one column per field, so the fields
 * are declared in the column order the export is meant to have; there are no other fields.
 */
public final class Customer {
    private final long id;
    private final String name;
    private final String email;
    private final String city;

    public Customer(long id, String name, String email, String city) {
        this.id = id;
        this.name = name;
        this.email = email;
        this.city = city;
    }
}
