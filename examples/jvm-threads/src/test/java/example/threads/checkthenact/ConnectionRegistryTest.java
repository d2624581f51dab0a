package example.threads.checkthenact;

import static org.junit.Assert.assertSame;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.Test;

/** JUnit 4. Check-then-act: two threads ask a registry for the connection to one host. */
public class ConnectionRegistryTest {
    @Test
    public void sharesOneConnectionPerHost() throws InterruptedException {
        ConnectionRegistry registry = new ConnectionRegistry();
        registry.connectionFor("cache.local");
        Connection[] got = askFromTwoThreads(registry::connectionFor);
        assertSame(got[0], got[1]);
    }

    @Test
    public void sharesOneConnectionPerHostWithComputeIfAbsent() throws InterruptedException {
        ConcurrentConnectionRegistry registry = new ConcurrentConnectionRegistry();
        registry.connectionFor("cache.local");
        Connection[] got = askFromTwoThreads(registry::connectionFor);
        assertSame(got[0], got[1]);
    }

    private static Connection[] askFromTwoThreads(Function<String, Connection> registry) throws InterruptedException {
        AtomicReference<Connection> first = new AtomicReference<>();
        AtomicReference<Connection> second = new AtomicReference<>();
        Thread a = new Thread(() -> first.set(registry.apply("db.local")), "client-a");
        Thread b = new Thread(() -> second.set(registry.apply("db.local")), "client-b");
        a.start();
        b.start();
        a.join();
        b.join();
        return new Connection[] {first.get(), second.get()};
    }
}
