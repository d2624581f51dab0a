package demo.basic;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** JUnit 5. Brittle and its state-setter: the brittle test only passes after loadsConfig. */
class ConfigTest {
    @Test
    void loadsConfig() {
        Registry.loadConfig();
        assertTrue(Registry.configLoaded());
    }

    @Test
    void readsLoadedConfig() {
        assertTrue(Registry.configLoaded(), "config was never loaded");
    }
}
