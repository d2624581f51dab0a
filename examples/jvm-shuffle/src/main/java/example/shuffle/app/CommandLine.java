package example.shuffle.app;

import java.util.HashSet;
import java.util.Set;

/**
 * Builds the command line for an external tool. Flags go in a set so that a flag added twice
 * is passed once; the tool does not care about their order, but the log and the tests see it.
 */
public final class CommandLine {
    private final String program;
    private final Set<String> flags = new HashSet<>();

    public CommandLine(String program) {
        this.program = program;
    }

    public CommandLine flag(String flag) {
        flags.add(flag);
        return this;
    }

    public String render() {
        String[] args = flags.toArray(new String[0]); // shuffle-site
        return program + " " + String.join(" ", args);
    }
}
