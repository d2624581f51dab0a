package io.flakescan.threads;

/**
 * Thrown in a controlled test when every live controlled thread waits for another (a lock-order
 * deadlock, a join of a blocked thread, a wait nobody will notify). The message names each
 * blocked thread, the monitors and locks it holds and what it waits for; the schedule record's
 * "deadlock" object says the same as JSON (docs/threads.md).
 */
public final class DeadlockError extends Error {
    private static final long serialVersionUID = 1L;

    public DeadlockError(String message) {
        super(message);
    }
}
