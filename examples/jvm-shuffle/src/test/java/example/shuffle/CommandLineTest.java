package example.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.shuffle.app.CommandLine;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** JUnit 5. HashSet.toArray() in main code (CommandLine.render). */
class CommandLineTest {
    private static CommandLine deploy() {
        return new CommandLine("deploy").flag("--dry-run").flag("--verbose").flag("--force").flag("--verbose");
    }

    /**
     * Implementation-dependent: expects the flags in the order they were added, which these
     * three flags happen to keep in a HashSet. Fixed by a LinkedHashSet in CommandLine;
     * sorting would put --force before --verbose.
     */
    @Test
    void rendersFlagsInOrderGiven() {
        assertEquals("deploy --dry-run --verbose --force", deploy().render());
    }

    /** Twin: the program first, then each flag once, in any order. */
    @Test
    void rendersEachFlagOnce() {
        List<String> words = Arrays.asList(deploy().render().split(" "));
        assertEquals("deploy", words.get(0));
        assertEquals(3, words.size() - 1);
        assertEquals(Set.of("--dry-run", "--verbose", "--force"), new HashSet<>(words.subList(1, words.size())));
    }
}
