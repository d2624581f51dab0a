package example.threads.lostupdate;

/** Counts page hits. Not thread-safe: two threads that record at once can lose a hit. */
public class HitCounter {
    private int hits;

    public void record() {
        hits++; // RACE: read, add and write are three steps; another thread can write in between
    }

    public int hits() {
        return hits;
    }
}
