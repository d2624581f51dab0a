package example.shuffle;

import static org.junit.Assert.assertEquals;

import example.shuffle.app.CommandRegistry;
import example.shuffle.app.DeployCommands;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** JUnit 4. Class.getDeclaredMethods() read twice in main code (CommandRegistry.commands). */
public class CommandRegistryTest {
    private static final Map<String, String> ANSWERS = Map.of(
            "deploy", "deployed build 42",
            "rollback", "rolled back to build 41",
            "status", "build 42 is live",
            "promote", "promoted build 42 to production");

    /**
     * Implementation-dependent, whatever order the plain JDK uses: number n of the menu must
     * run the command named n-th in the menu. The menu (built at registration) and the
     * dispatch table (built at the first run) come from two getDeclaredMethods() calls, which
     * agree on OpenJDK and need not. Fixed by sorting the methods in commands(), so that both
     * reads agree.
     */
    @Test
    public void runsEachCommandByItsMenuNumber() {
        CommandRegistry registry = new CommandRegistry(new DeployCommands());
        List<String> expected = new ArrayList<>();
        List<String> answered = new ArrayList<>();
        for (int number = 1; number <= registry.menu().size(); number++) {
            expected.add(ANSWERS.get(registry.menu().get(number - 1)));
            answered.add(registry.run(number));
        }
        assertEquals(expected, answered);
    }

    /** Twin: the menu holds every command, and each runs by name. */
    @Test
    public void runsEachCommandByName() {
        CommandRegistry registry = new CommandRegistry(new DeployCommands());
        assertEquals(ANSWERS.keySet(), new HashSet<>(registry.menu()));
        for (String name : registry.menu()) {
            assertEquals(ANSWERS.get(name), registry.run(name));
        }
    }
}
