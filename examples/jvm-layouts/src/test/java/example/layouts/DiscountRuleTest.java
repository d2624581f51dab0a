package example.layouts;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import java.util.Collection;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/** JUnit 4 @RunWith(Parameterized.class): one test per parameter row; all stable. */
@RunWith(Parameterized.class)
public class DiscountRuleTest {
    @Parameters
    public static Collection<Object[]> rules() {
        return Arrays.asList(new Object[][] {{10, 200, 180}, {25, 400, 300}, {0, 99, 99}});
    }

    private final int percent;
    private final int price;
    private final int discounted;

    public DiscountRuleTest(int percent, int price, int discounted) {
        this.percent = percent;
        this.price = price;
        this.discounted = discounted;
    }

    @Test
    public void appliesPercentage() {
        assertEquals(discounted, price - price * percent / 100);
    }
}
