package example.shuffle.app;

/** A signed-in user's session; sessions of the same user are equal, and sort by user id. */
public final class Session implements Comparable<Session> {
    private final String userId;

    public Session(String userId) {
        this.userId = userId;
    }

    public String userId() {
        return userId;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Session && ((Session) other).userId.equals(userId);
    }

    @Override
    public int hashCode() {
        return userId.hashCode();
    }

    @Override
    public int compareTo(Session other) {
        return userId.compareTo(other.userId);
    }
}
