package example.shuffle.app;

import java.util.Properties;

/**
 * Writes configuration as "key=value" lines, the format the deploy scripts read. Reviewers
 * diff these files, so the lines are expected sorted by key.
 */
public final class ConfigWriter {
    private ConfigWriter() {}

    public static String render(Properties config) {
        StringBuilder out = new StringBuilder();
        // stringPropertyNames() is a set with no defined order; nothing here sorts it.
        for (String key : config.stringPropertyNames()) { // shuffle-site
            out.append(key).append('=').append(config.getProperty(key)).append('\n');
        }
        return out.toString();
    }
}
