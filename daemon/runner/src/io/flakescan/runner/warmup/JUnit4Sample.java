package io.flakescan.runner.warmup;

import org.junit.Assert;
import org.junit.Test;

/** A JUnit 4 test the runner's warm-up JVM runs (Main warmup), so that the class data archive holds what JUnit 4 tests load. */
public class JUnit4Sample {
    @Test
    public void first() {
        Assert.assertEquals(2, 1 + 1);
    }

    @Test
    public void second() {
        Assert.assertTrue("second".startsWith("s"));
    }
}
