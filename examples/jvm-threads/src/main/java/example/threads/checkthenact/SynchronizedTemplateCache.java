package example.threads.checkthenact;

import java.util.HashMap;
import java.util.Map;

/** Compiles each template once and shares it; the lookup and the store hold one monitor. */
public class SynchronizedTemplateCache {
    private final Map<String, Template> compiled = new HashMap<>();

    public synchronized Template template(String source) {
        Template t = compiled.get(source);
        if (t == null) {
            t = new Template(source);
            compiled.put(source, t);
        }
        return t;
    }
}
