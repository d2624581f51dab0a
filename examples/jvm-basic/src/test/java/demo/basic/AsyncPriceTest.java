package demo.basic;

import static org.junit.Assert.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.Test;

/** JUnit 4. The classic async-wait flaky test and its correctly synchronised twin. */
public class AsyncPriceTest {
    @Test
    public void showsPriceAfterRefresh() throws Exception {
        PriceService service = new PriceService();
        service.refresh();
        // Flaky: sleeps for a while instead of waiting for the lookup, which is done within it
        // when the backend's cache answers, and long after it when the network does.
        Thread.sleep(100);
        assertEquals(Integer.valueOf(42), service.lastPrice());
    }

    @Test
    public void showsPriceAfterRefreshCompletes() throws Exception {
        PriceService service = new PriceService();
        service.refresh().get(5, TimeUnit.SECONDS);
        assertEquals(Integer.valueOf(42), service.lastPrice());
    }
}
