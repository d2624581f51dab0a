package example.threads.checkthenact;

import java.util.HashMap;
import java.util.Map;

/** Compiles each template once and shares it. Not thread-safe: a lazy get-then-put. */
public class TemplateCache {
    private final Map<String, Template> compiled = new HashMap<>();

    public Template template(String source) {
        Template t = compiled.get(source); // RACE: both threads can miss
        if (t == null) {
            t = new Template(source);
            compiled.put(source, t); // RACE: each thread stores (and returns) its own copy
        }
        return t;
    }
}
