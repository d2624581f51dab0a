package example.repair;

import static org.junit.Assert.assertEquals;

import example.repair.app.Registry;
import java.util.List;
import org.junit.Test;

/** Pair a, victim: expects "bob" to be the only registered name. */
public class StaticCollectionVictimTest {
    @Test
    public void registersOnlyBob() {
        Registry.register("bob");
        assertEquals(List.of("bob"), Registry.NAMES);
    }
}
