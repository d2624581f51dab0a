package example.shuffle;

import static org.junit.Assert.assertEquals;

import example.shuffle.app.ServiceDirectory;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.Test;

/** JUnit 4. Hashtable.keys() enumerated in main code (ServiceDirectory.names). */
public class ServiceDirectoryTest {
    private static ServiceDirectory directory() {
        ServiceDirectory directory = new ServiceDirectory();
        directory.register("payments", "http://payments:8080");
        directory.register("catalog", "http://catalog:8080");
        directory.register("orders", "http://orders:8080");
        directory.register("mail", "http://mail:8080");
        return directory;
    }

    /**
     * Implementation-dependent: expects the names sorted, which these four happen to get from
     * the Hashtable's enumeration. Fixed by enumerating a sorted copy in names() (a TreeMap);
     * the registration order would put payments first.
     */
    @Test
    public void namesServicesAlphabetically() {
        assertEquals(List.of("catalog", "mail", "orders", "payments"), directory().names());
    }

    /** Twin: the same names, compared as a set. */
    @Test
    public void namesEveryRegisteredService() {
        assertEquals(Set.of("catalog", "mail", "orders", "payments"), new HashSet<>(directory().names()));
    }
}
