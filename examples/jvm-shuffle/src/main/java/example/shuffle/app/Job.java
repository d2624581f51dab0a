package example.shuffle.app;

/** A queued job; a lower priority number runs first. */
public record Job(String name, int priority) {}
