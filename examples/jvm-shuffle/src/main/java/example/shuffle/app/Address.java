package example.shuffle.app;

/** A postal address; the shorter constructors leave the later parts unknown (null). */
public final class Address {
    private final String street;
    private final String city;
    private final String zip;

    public Address() {
        this(null, null, null);
    }

    public Address(String street) {
        this(street, null, null);
    }

    public Address(String street, String city) {
        this(street, city, null);
    }

    public Address(String street, String city, String zip) {
        this.street = street;
        this.city = city;
        this.zip = zip;
    }

    @Override
    public String toString() {
        return "Address[street=" + street + ", city=" + city + ", zip=" + zip + "]";
    }
}
