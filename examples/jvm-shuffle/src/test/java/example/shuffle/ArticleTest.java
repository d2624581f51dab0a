package example.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.shuffle.app.Article;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** JUnit 5. HashSet.toString() in test code. */
class ArticleTest {
    private static Article post() {
        return new Article("Finding flaky tests").tag("java", "testing", "flaky", "jvm", "java");
    }

    /**
     * Implementation-dependent: the expected text is the HashSet's toString() copied from a
     * run; neither the order the tags were given in nor sorted. Fixed by comparing the set
     * with a set instead of its string.
     */
    @Test
    void printsTags() {
        assertEquals("[jvm, java, flaky, testing]", post().tags().toString()); // shuffle-site
    }

    /** Twin: the same tags compared as a set. */
    @Test
    void keepsEachTagOnce() {
        assertEquals(Set.of("java", "testing", "flaky", "jvm"), post().tags());
    }
}
