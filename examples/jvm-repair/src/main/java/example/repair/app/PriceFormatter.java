package example.repair.app;

/** Formats an amount with two decimals in the default FORMAT locale (pair d):
 *  {@code String.format} reads {@code java.util.Locale.defaultFormatLocale}. */
public final class PriceFormatter {
    private PriceFormatter() {}

    public static String format(double amount) { return String.format("%.2f", amount); }
}
