package io.flakescan.threads;

/** The system properties of a controlled run (docs/threads.md, "How the daemon asks"), read at each begin. */
final class Settings {
    final String strategy;
    final String seedText;
    final long seed;
    final int depth;
    final int steps;
    final boolean virtualTime;
    final String replayFile;
    final long maxSteps;
    /** Spin protection: passes of one (op, target) in a row after which the thread is switched away. */
    final int spinLimit;

    private Settings(String strategy, String seedText, int depth, int steps, boolean virtualTime, String replayFile,
                     long maxSteps, int spinLimit) {
        this.strategy = strategy;
        this.seedText = seedText;
        this.seed = Long.parseUnsignedLong(seedText);
        this.depth = Math.max(1, depth);
        this.steps = Math.max(1, steps);
        this.virtualTime = virtualTime;
        this.replayFile = replayFile;
        this.maxSteps = maxSteps;
        this.spinLimit = Math.max(2, spinLimit);
    }

    static Settings fromProperties() {
        return new Settings(
                System.getProperty("flakescan.threads.strategy", "random"),
                System.getProperty("flakescan.threads.seed", "0"),
                Integer.getInteger("flakescan.threads.depth", 3),
                Integer.getInteger("flakescan.threads.steps", 200),
                !"false".equals(System.getProperty("flakescan.threads.virtual_time", "true")),
                System.getProperty("flakescan.threads.replay"),
                Long.getLong("flakescan.threads.max_steps", 100000L),
                Integer.getInteger("flakescan.threads.spin", 64));
    }
}
