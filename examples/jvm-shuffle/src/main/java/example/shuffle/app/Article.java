package example.shuffle.app;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/** A blog article with its tags; a tag given twice is kept once. */
public final class Article {
    private final String title;
    private final Set<String> tags = new HashSet<>();

    public Article(String title) {
        this.title = title;
    }

    public String title() {
        return title;
    }

    public Article tag(String... names) {
        Collections.addAll(tags, names);
        return this;
    }

    public Set<String> tags() {
        return Collections.unmodifiableSet(tags);
    }
}
