package example.repair.app;

/** The feature mode, read from a system property each time it is asked for (pair c): the
 *  state lives in the JDK ({@code java.lang.System.props}), not in this class. */
public final class FeatureFlags {
    public static final String MODE_PROPERTY = "flags.mode";

    private FeatureFlags() {}

    public static String mode() { return System.getProperty(MODE_PROPERTY, "standard"); }
}
