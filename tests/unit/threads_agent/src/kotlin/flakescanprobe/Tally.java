package kotlin.flakescanprobe;

/**
 * A class under a prefix the agent never rewrites (kotlin.), for the case where
 * flakescan.threads.include names it anyway: the prefixes narrow what is rewritten, never widen it.
 */
public final class Tally {
    public int count;

    /** A monitor and a yield: points whose target or site would name this class, were it rewritten. */
    public void add() {
        synchronized (this) {
            count++;
        }
        Thread.yield();
    }
}
