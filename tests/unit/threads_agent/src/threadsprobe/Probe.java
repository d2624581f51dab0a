package threadsprobe;

import io.flakescan.threads.Control;

/**
 * Runs one scenario under the agent once per seed and prints one JSON line per run:
 * {"seed": S, "outcome": "pass"|"fail", "error": "...", "at": "the error's first frame in the scenarios",
 * "record": {the schedule record}}.
 * Usage: Probe SCENARIO STRATEGY FIRST_SEED LAST_SEED [REPLAY_FILE]. Other settings come from
 * -Dflakescan.threads.* as the runner's would; -Dprobe.spinners_per_cpu=N loads the machine first
 * (loadTheMachine). The JVM ends with System.exit, as the runner's
 * does, because a deadlocked schedule leaves threads blocked for good.
 */
public final class Probe {
    private Probe() {}

    public static void main(String[] args) {
        String scenario = args[0];
        System.setProperty("flakescan.threads.strategy", args[1]);
        long first = Long.parseLong(args[2]);
        long last = Long.parseLong(args[3]);
        if (args.length > 4) System.setProperty("flakescan.threads.replay", args[4]);
        loadTheMachine(Integer.getInteger("probe.spinners_per_cpu", 0));
        for (long seed = first; seed <= last; seed++) {
            System.setProperty("flakescan.threads.seed", Long.toString(seed));
            Control.begin("threadsprobe.Scenarios#" + scenario);
            String error = null;
            String at = null;
            try {
                Scenarios.run(scenario);
            } catch (Throwable e) {
                error = e.getClass().getName() + ": " + e.getMessage();
                at = firstOwnFrame(e);
            }
            String record = Control.end();
            StringBuilder line = new StringBuilder("{\"seed\":").append(seed).append(",\"outcome\":\"")
                    .append(error == null ? "pass" : "fail").append('"');
            if (error != null) line.append(",\"error\":").append(quote(error));
            if (at != null) line.append(",\"at\":").append(quote(at));
            line.append(",\"record\":").append(record).append('}');
            System.out.println(line);
        }
        System.out.flush();
        System.exit(0);
    }

    /**
     * Starts `perCpu` spinning daemon threads per processor before any test: a loaded machine.
     * They start outside any session and never pass a scheduling point (locals only), so they
     * stay outside control and only take processor time from the scenario's threads.
     */
    private static void loadTheMachine(int perCpu) {
        for (int i = 0; i < perCpu * Runtime.getRuntime().availableProcessors(); i++) {
            Thread t = new Thread(Probe::spin, "probe-load-" + i);
            t.setDaemon(true);
            t.start();
        }
    }

    private static void spin() {
        long x = 1;
        while (x != 0) x = x * 6364136223846793005L + 1442695040888963407L;
    }

    /** Where in the scenarios the error was thrown: its first frame in this package, not Probe's. */
    private static String firstOwnFrame(Throwable e) {
        for (StackTraceElement f : e.getStackTrace())
            if (f.getClassName().startsWith("threadsprobe.") && !f.getClassName().equals(Probe.class.getName())) return f.toString();
        return null;
    }

    private static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }
}
