package example.order.app;

/** The signed-in user of the process (a guest until someone signs in): the shared state of
 *  the session tests. Classes that sign users in sign them out in their set-up. */
public final class Session {
    private static String user;

    private Session() {}

    public static void signIn(String name) { user = name; }

    public static void signOut() { user = null; }

    public static boolean signedIn() { return user != null; }

    /** What a page says to whoever is signed in. */
    public static String greeting() { return "Hello, " + (user == null ? "guest" : user); }
}
