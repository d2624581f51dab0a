package io.flakescan.runner;

import java.util.Map;

/**
 * A shutdown hook that says which code ended the JVM while a test ran. A test (or code it
 * calls, or a thread it left behind) that calls System.exit ends the JVM without JUnit ever
 * reporting the test; the daemon then only sees a "started" line and an exit status. When the
 * JVM shuts down while an entry runs, this hook looks for the thread inside Runtime.exit and
 * writes {"event":"exit","index":i,"test":..,"at":"caller frame","stack":..} for that entry.
 * It writes nothing when no entry runs (the runner's own exit) or no thread is in
 * Runtime.exit (a signal); Runtime.halt runs no hooks and stays unexplained.
 */
final class ExitWatch extends Thread {
    static final int MAX_FRAMES = 12;

    private final ResultSink sink;

    ExitWatch(ResultSink sink) {
        super("flakescan-exit-watch");
        this.sink = sink;
    }

    @Override
    public void run() {
        int index = sink.running();
        if (index < 0) return;
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            StackTraceElement[] frames = e.getValue();
            int caller = callerOfExit(frames);
            if (caller < 0 || frames[caller].getClassName().startsWith("io.flakescan.runner.")) continue;
            StringBuilder stack = new StringBuilder();
            for (int i = caller; i < frames.length && i < caller + MAX_FRAMES; i++)
                stack.append("\tat ").append(frame(frames[i])).append('\n');
            sink.write(new JsonLine().put("event", "exit").put("index", index).put("test", sink.runningTest())
                    .put("thread", e.getKey().getName()).put("at", frame(frames[caller]))
                    .put("stack", stack.toString()));
            return;
        }
    }

    /** "pkg.C.m(C.java:10)", as printStackTrace writes it but without the loader's "app//". */
    static String frame(StackTraceElement e) {
        String where = e.getFileName() == null ? "Unknown Source"
                : e.getLineNumber() >= 0 ? e.getFileName() + ":" + e.getLineNumber() : e.getFileName();
        return e.getClassName() + "." + e.getMethodName() + "(" + where + ")";
    }

    /** The frame that called System.exit or Runtime.exit, or -1 when `frames` did not. */
    static int callerOfExit(StackTraceElement[] frames) {
        int last = -1;
        for (int i = 0; i < frames.length; i++) {
            String c = frames[i].getClassName();
            String m = frames[i].getMethodName();
            if ((c.equals("java.lang.Runtime") || c.equals("java.lang.System")) && m.equals("exit")) last = i;
        }
        return last >= 0 && last + 1 < frames.length ? last + 1 : -1;
    }
}
