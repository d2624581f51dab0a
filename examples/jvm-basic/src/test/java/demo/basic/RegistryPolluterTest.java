package demo.basic;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Polluter: registers an entry and never cleans up. */
public class RegistryPolluterTest {
    @Test
    public void registersDefaultCurrency() {
        Registry.register("currency", "EUR");
        assertEquals(1, Registry.size());
    }
}
