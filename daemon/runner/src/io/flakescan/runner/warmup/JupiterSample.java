package io.flakescan.runner.warmup;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** A JUnit 5 test the runner's warm-up JVM runs (Main warmup), so that the class data archive holds what Jupiter tests load. */
class JupiterSample {
    @Test
    void first() {
        Assertions.assertEquals(2, 1 + 1);
    }

    @Test
    void second() {
        Assertions.assertTrue("second".startsWith("s"));
    }
}
