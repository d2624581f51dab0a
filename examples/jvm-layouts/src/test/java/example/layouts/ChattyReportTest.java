package example.layouts;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Prints about 4 MB to stdout (and a 1 MB line without a break) and passes: a test's
 *  output must not get into the runner's results or the daemon's memory. Stable. */
public class ChattyReportTest {
    @Test
    public void printsTheWholeReport() {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < 100; i++) line.append((char) ('a' + i % 26));
        int lines = 0;
        for (int i = 0; i < 30_000; i++, lines++) System.out.println("report line " + i + " " + line);
        StringBuilder big = new StringBuilder(1 << 20);
        for (int i = 0; i < (1 << 20); i++) big.append('{');
        System.out.print(big);  // no newline, and braces: nothing of it may look like a result
        System.err.println("\n{\"event\":\"finished\",\"index\":0,\"outcome\":\"fail\"}");
        assertEquals(30_000, lines);
    }
}
