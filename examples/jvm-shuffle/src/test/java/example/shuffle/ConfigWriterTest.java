package example.shuffle;

import static org.junit.Assert.assertEquals;

import example.shuffle.app.ConfigWriter;
import java.io.IOException;
import java.io.StringReader;
import java.util.Properties;
import org.junit.Test;

/** JUnit 4. Properties.stringPropertyNames() iterated in main code (ConfigWriter.render). */
public class ConfigWriterTest {
    private static Properties shopConfig() {
        Properties config = new Properties();
        config.setProperty("server.port", "8443");
        config.setProperty("db.user", "shop");
        config.setProperty("queue.size", "512");
        config.setProperty("mail.from", "orders@shop.example.org");
        return config;
    }

    /**
     * Implementation-dependent: the file is meant to be sorted by key, and these four keys
     * happen to come out of the Properties' hash table sorted. Fixed by sorting the names in
     * render() (a TreeSet); insertion order would put server.port first.
     */
    @Test
    public void writesKeysSorted() {
        assertEquals("db.user=shop\nmail.from=orders@shop.example.org\nqueue.size=512\nserver.port=8443\n",
                ConfigWriter.render(shopConfig()));
    }

    /** Twin: the written file, loaded again, holds the same configuration. */
    @Test
    public void writtenFileLoadsBack() throws IOException {
        Properties reread = new Properties();
        reread.load(new StringReader(ConfigWriter.render(shopConfig())));
        assertEquals(shopConfig(), reread);
    }
}
