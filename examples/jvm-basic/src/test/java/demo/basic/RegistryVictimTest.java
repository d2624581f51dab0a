package demo.basic;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Victim: passes alone, fails after RegistryPolluterTest left an entry behind. */
public class RegistryVictimTest {
    @Test
    public void startsWithEmptyRegistry() {
        assertEquals(0, Registry.size());
    }
}
