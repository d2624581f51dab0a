package example.shuffle.app;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a documentation folder (one Markdown file per page) into a book: a numbered table of
 * contents for the sidebar and the pages themselves, numbered the same way. Both list the
 * folder on their own, and they agree only while File.listFiles() returns the files in the
 * same order twice: true for an unchanged folder on Linux, promised nowhere.
 */
public final class Catalog {
    private final File folder;

    public Catalog(File folder) {
        this.folder = folder;
    }

    /** The table of contents: "1. intro", "2. setup", ... (a page's title is its file name). */
    public List<String> contents() {
        List<String> contents = new ArrayList<>();
        for (File page : pages()) {
            contents.add((contents.size() + 1) + ". " + title(page));
        }
        return contents;
    }

    /** The pages in book order, each under its number: "== 1 ==\n" then the file's text. */
    public String book() throws IOException {
        StringBuilder book = new StringBuilder();
        int number = 1;
        for (File page : pages()) {
            book.append("== ").append(number++).append(" ==\n");
            book.append(Files.readString(page.toPath(), StandardCharsets.UTF_8));
        }
        return book.toString();
    }

    private File[] pages() {
        return folder.listFiles(); // shuffle-site
    }

    private static String title(File page) {
        String name = page.getName();
        int dot = name.lastIndexOf('.');
        return dot < 0 ? name : name.substring(0, dot);
    }
}
