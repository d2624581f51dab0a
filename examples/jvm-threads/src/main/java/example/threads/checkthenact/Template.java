package example.threads.checkthenact;

/** A compiled message template; compiling one is what the caches below avoid doing twice. */
public class Template {
    private final String source;

    public Template(String source) {
        this.source = source;
    }

    public String render(String name) {
        return source.replace("{name}", name);
    }
}
