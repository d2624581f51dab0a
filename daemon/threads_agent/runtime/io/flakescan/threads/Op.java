package io.flakescan.threads;

/**
 * One pending operation: what a controlled thread announced at a scheduling point and waits to
 * be chosen for. Whether it can run now (enabled) depends on the model (Session): a monitor
 * enter needs the monitor free, a join needs the thread ended, and so on. A timed operation
 * that is not enabled times out only when no controlled thread can run (Session.stuck).
 */
final class Op {
    enum Kind {
        MONITOR_ENTER("monitor_enter"), MONITOR_EXIT("monitor_exit"), WAIT("wait"), NOTIFY("notify"),
        NOTIFY_ALL("notify_all"), THREAD_START("thread_start"), THREAD_JOIN("thread_join"), THREAD_END("thread_end"),
        PARK("park"), UNPARK("unpark"), INTERRUPT("interrupt"), LOCK("lock"), UNLOCK("unlock"), TRY_LOCK("try_lock"), ATOMIC("atomic"),
        FIELD_READ("field_read"), FIELD_WRITE("field_write"), CALL_READ("call_read"), CALL_WRITE("call_write"), SLEEP("sleep"),
        YIELD("yield"), BLOCKING_CALL("blocking_call");

        final String json;

        Kind(String json) {
            this.json = json;
        }
    }

    final Kind kind;
    /** What the operation is on: a monitor, lock, atomic or field owner object, a ThreadState (a
     *  thread_start names the Thread until it passes), or null. */
    Object target;
    /** A field's "Class.field", a blocking call's "Class.method"; null for objects named by their type. */
    final String name;
    final String site;

    /** A timed operation's length in virtual ms (-1: untimed); its deadline is set when it blocks. */
    long timeoutMs = -1;
    long deadline = -1;
    boolean timedOut;
    boolean interruptible;
    boolean interrupted;
    /** A wait's second half: reacquire `target`'s monitor `count` times once notified. */
    boolean waitReturn;
    int count;
    /** A wait on a monitor also held for real (Monitors): the model only lets it go (its count
     *  into `count`); `reacquire` takes it back `count` times after the real wait. */
    boolean realWait;
    boolean reacquire;
    boolean notified;
    /** A lock attempt whose real tryLock failed at this lock epoch: blocked until the epoch moves. */
    long failedAtEpoch = -1;
    /** A wait for a condition outside the model (a latch at zero, a FutureTask done): enabled when
     *  it holds; it is read again at every decision, so only state controlled threads change is exact. */
    java.util.function.BooleanSupplier until;
    /** sleep: its length in ms. */
    long amount;
    /** POS: this operation's random priority, drawn when it is first a candidate. */
    double posPriority = Double.NaN;

    Op(Kind kind, Object target, String name, String site) {
        this.kind = kind;
        this.target = target;
        this.name = name;
        this.site = site;
    }

    Op timed(long ms) {
        this.timeoutMs = ms;
        return this;
    }

    Op interruptible() {
        this.interruptible = true;
        return this;
    }

    boolean isRead() {
        return kind == Kind.FIELD_READ || kind == Kind.CALL_READ;
    }

    /** POS: two operations conflict when they are on one target and not both reads. */
    boolean conflictsWith(Op other) {
        if (other == null || other.target == null && other.name == null) return false;
        boolean same = target != null ? target == other.target : name != null && name.equals(other.name) && other.target == null;
        return same && !(isRead() && other.isRead());
    }
}
