package io.flakescan.runner;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The results stream: one JSON object per line, flushed at once, so that a JVM that dies
 * mid-test leaves every finished result and a "started" line for the test it died in.
 * It is a file of its own, not stdout, because tests print to stdout.
 */
final class ResultSink implements AutoCloseable {
    private final Writer writer;

    ResultSink(String path) throws IOException {
        writer = new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8);
    }

    /** The entry that started and has not finished yet, or -1 (read by ExitWatch). */
    private volatile int running = -1;
    private volatile String runningTest;
    /** The thread id counter when the running entry started (see threadIdNow), or -1. */
    private long threadIdAtStart = -1;

    /** Writes an entry's "started" line and marks it running; in a controlled run (threads)
     *  the entry's schedule begins here, on the thread that runs it. */
    synchronized void started(int index, String test) {
        write(new JsonLine().put("event", "started").put("index", index).put("test", test));
        threadIdAtStart = threadIdNow();
        runningTest = test;
        running = index;
        ThreadsControl.begin(test);
    }

    /** Writes an entry's "finished" line, with the sites shuffled while it ran (shuffled runs
     *  only), its schedule record (controlled runs only) and the threads created while it ran
     *  (when there were any), and marks nothing running. */
    synchronized void finished(JsonLine line) {
        String threads = running >= 0 ? ThreadsControl.end() : null;
        long created = threadIdAtStart >= 0 ? threadIdNow() - threadIdAtStart - 1 : 0;
        if (created > 0) line.put("threads_created", created);
        write(line.putRaw("shuffled", ShuffleControl.drain()).putRaw("threads", threads));
        threadIdAtStart = -1;
        running = -1;
    }

    /**
     * The JVM's thread id counter: every Thread constructed takes the next id, this probe
     * included, so two readings one test apart differ by the threads created while it ran,
     * plus one. Only constructed, never started. -1 when a test's security manager forbids
     * even that. (A thread an earlier test left running counts for the test it creates
     * threads during: the count says where to look, it is no evidence.)
     */
    private static long threadIdNow() {
        try {
            return new Thread().getId();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    int running() { return running; }

    String runningTest() { return runningTest; }

    synchronized void write(JsonLine line) {
        try {
            writer.write(line.toString());
            writer.write('\n');
            writer.flush();
        } catch (IOException e) {
            throw new IllegalStateException("cannot write results: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}
