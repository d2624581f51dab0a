package example.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.shuffle.app.PaymentService;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** JUnit 5. Class.getAnnotations() in test code. */
class PaymentServiceTest {
    /**
     * Implementation-dependent: expects the annotations in the order they are written on the
     * class, which OpenJDK returns and the Javadoc does not promise. Fixed by comparing the
     * names as collections instead of the printed list; the written order is not sorted
     * (sorting puts Audited first).
     */
    @Test
    void carriesCatalogueAnnotationsInOrder() {
        assertEquals("[Owner, Audited, Since]", names(PaymentService.class.getAnnotations()).toString()); // shuffle-site
    }

    /** Twin: the same annotations compared as a set. */
    @Test
    void carriesCatalogueAnnotations() {
        assertEquals(Set.of("Owner", "Audited", "Since"), new HashSet<>(names(PaymentService.class.getAnnotations())));
    }

    private static List<String> names(Annotation[] annotations) {
        List<String> names = new ArrayList<>();
        for (Annotation annotation : annotations) {
            names.add(annotation.annotationType().getSimpleName());
        }
        return names;
    }
}
