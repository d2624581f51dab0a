package example.order;

import static org.junit.Assert.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.Test;

/** JUnit 4. registersName is a NIO test: the second registration of the same name fails. */
public class RegistrationNioTest {
    private static final Set<String> REGISTERED = new HashSet<>();

    @Test
    public void registersName() {
        assertTrue("already registered", REGISTERED.add("alice"));
    }
}
