package example.shuffle.app;

/** A build request for one project; a lower priority number is built first. */
public record Build(String project, int priority) {
    @Override
    public String toString() {
        return project + "(" + priority + ")";
    }
}
