package example.shuffle;

import static org.junit.Assert.assertEquals;

import example.shuffle.app.Catalog;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * JUnit 4. File.listFiles() read twice in main code (Catalog.pages). The order of a directory
 * listing depends on the file system, so no test here compares it with a literal.
 */
public class CatalogTest {
    private static final List<String> PAGES = List.of("intro", "setup", "usage", "faq", "changelog");

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private Catalog docs() throws IOException {
        File docs = temp.newFolder("docs");
        for (String page : PAGES) {
            Files.writeString(new File(docs, page + ".md").toPath(), "# " + page + "\n\nText of " + page + ".\n");
        }
        return new Catalog(docs);
    }

    /**
     * Implementation-dependent on any file system: the n-th page of the book must be the n-th
     * entry of the contents. contents() and book() list the folder separately. Fixed by
     * sorting the listing in pages(), so that both agree.
     */
    @Test
    public void numbersPagesAsTheContentsDo() throws IOException {
        Catalog catalog = docs();
        List<String> contents = new ArrayList<>();
        for (String entry : catalog.contents()) {
            contents.add(entry.substring(entry.indexOf(". ") + 2));
        }
        assertEquals(contents, headings(catalog.book()));
    }

    /** Twin: every page is in the contents and in the book, once, in any order. */
    @Test
    public void includesEveryPage() throws IOException {
        Catalog catalog = docs();
        Set<String> contents = new HashSet<>();
        for (String entry : catalog.contents()) {
            contents.add(entry.substring(entry.indexOf(". ") + 2));
        }
        assertEquals(new HashSet<>(PAGES), contents);
        List<String> headings = headings(catalog.book());
        assertEquals(PAGES.size(), headings.size());
        assertEquals(new HashSet<>(PAGES), new HashSet<>(headings));
    }

    /** The page titles of a book, in the order its pages come. */
    private static List<String> headings(String book) {
        List<String> headings = new ArrayList<>();
        for (String line : book.split("\n")) {
            if (line.startsWith("# ")) {
                headings.add(line.substring(2));
            }
        }
        return headings;
    }
}
