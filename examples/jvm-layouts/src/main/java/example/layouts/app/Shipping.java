package example.layouts.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/** Shipping costs: base rates from a main resource (shipping-rates.properties), plus
 *  surcharges kept in a static map that nothing resets (the order-dependence is planted here). */
public final class Shipping {
    private static final Properties RATES = load();
    private static final Map<String, Integer> SURCHARGES = new HashMap<>();

    private Shipping() {}

    public static int costFor(String country) {
        String rate = RATES.getProperty(country);
        if (rate == null) throw new IllegalArgumentException("no rate for " + country);
        return Integer.parseInt(rate.trim()) + SURCHARGES.getOrDefault(country, 0);
    }

    public static void addSurcharge(String country, int amount) {
        SURCHARGES.merge(country, amount, Integer::sum);
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = Shipping.class.getResourceAsStream("shipping-rates.properties")) {
            if (in == null) throw new IllegalStateException("shipping-rates.properties is not on the classpath");
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
