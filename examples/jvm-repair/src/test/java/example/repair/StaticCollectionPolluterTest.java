package example.repair;

import static org.junit.Assert.assertTrue;

import example.repair.app.Registry;
import org.junit.Test;

/** Pair a, polluter: leaves "alice" in Registry.NAMES. */
public class StaticCollectionPolluterTest {
    @Test
    public void registersAlice() {
        Registry.register("alice");
        assertTrue(Registry.NAMES.contains("alice"));
    }
}
