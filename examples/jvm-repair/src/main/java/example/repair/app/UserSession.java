package example.repair.app;

/** The signed-in user of the process, held by a singleton (pair b). The static field is
 *  {@code INSTANCE}; what changes is the object it points to ({@code INSTANCE.user}).
 *  {@code login} and {@code logout} go through {@code setUser}, a mutator called on a
 *  UserSession, which is what makes them reset candidates for {@code INSTANCE}. */
public final class UserSession {
    private static final UserSession INSTANCE = new UserSession();

    private String user;

    private UserSession() {}

    public static UserSession get() { return INSTANCE; }

    public void login(String name) { setUser(name); }

    public void logout() { setUser(null); }

    /** The signed-in user, or null for a guest. */
    public String currentUser() { return user; }

    private void setUser(String name) { user = name; }
}
