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

    /** Writes an entry's "started" line and marks it running; in a controlled run (threads)
     *  the entry's schedule begins here, on the thread that runs it. */
    synchronized void started(int index, String test) {
        write(new JsonLine().put("event", "started").put("index", index).put("test", test));
        runningTest = test;
        running = index;
        ThreadsControl.begin(test);
    }

    /** Writes an entry's "finished" line, with the sites shuffled while it ran (shuffled runs
     *  only) and its schedule record (controlled runs only), and marks nothing running. */
    synchronized void finished(JsonLine line) {
        String threads = running >= 0 ? ThreadsControl.end() : null;
        write(line.putRaw("shuffled", ShuffleControl.drain()).putRaw("threads", threads));
        running = -1;
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
