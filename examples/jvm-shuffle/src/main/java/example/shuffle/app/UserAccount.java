package example.shuffle.app;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/** A user and the roles granted to them; granting a role twice is harmless. */
public final class UserAccount {
    private final String name;
    private final Set<String> roles = new HashSet<>();

    public UserAccount(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public UserAccount grant(String role) {
        roles.add(role);
        return this;
    }

    public boolean has(String role) {
        return roles.contains(role);
    }

    /** The granted roles; a set, so in no particular order. */
    public Set<String> roles() {
        return Collections.unmodifiableSet(roles);
    }
}
