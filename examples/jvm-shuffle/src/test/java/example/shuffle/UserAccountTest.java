package example.shuffle;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;

import example.shuffle.app.UserAccount;
import org.junit.Test;

/** JUnit 4 with hamcrest. A HashSet iterated by hamcrest's contains() in test code. */
public class UserAccountTest {
    private static UserAccount moderator() {
        return new UserAccount("mona").grant("reviewer").grant("admin").grant("guest").grant("admin");
    }

    /**
     * Implementation-dependent: contains() checks the iteration order, and these three roles
     * happen to leave the HashSet sorted. Fixed by a TreeSet in UserAccount, or by
     * containsInAnyOrder; a LinkedHashSet would give reviewer, admin, guest.
     */
    @Test
    public void listsGrantedRoles() {
        assertThat(moderator().roles(), contains("admin", "guest", "reviewer")); // shuffle-site
    }

    /** Twin: the same check without an order. */
    @Test
    public void holdsGrantedRoles() {
        assertThat(moderator().roles(), containsInAnyOrder("admin", "guest", "reviewer"));
    }
}
