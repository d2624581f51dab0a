package io.flakescan.threads;

/** Just enough JSON writing for the schedule record (no JSON library is on the test's classpath). */
final class Json {
    private final StringBuilder out = new StringBuilder();
    /** Per open object or array: whether it has a member yet. */
    private final java.util.ArrayDeque<boolean[]> open = new java.util.ArrayDeque<>();

    Json beginObject() {
        value();
        out.append('{');
        open.push(new boolean[1]);
        return this;
    }

    Json endObject() {
        open.pop();
        out.append('}');
        return this;
    }

    Json beginArray() {
        value();
        out.append('[');
        open.push(new boolean[1]);
        return this;
    }

    Json endArray() {
        open.pop();
        out.append(']');
        return this;
    }

    /** A key inside an object; the next call writes its value. */
    Json key(String key) {
        comma();
        quote(key);
        out.append(':');
        pendingKey = true;
        return this;
    }

    Json string(String s) {
        value();
        if (s == null) out.append("null");
        else quote(s);
        return this;
    }

    Json number(long n) {
        value();
        out.append(n);
        return this;
    }

    Json bool(boolean b) {
        value();
        out.append(b);
        return this;
    }

    Json nul() {
        value();
        out.append("null");
        return this;
    }

    Json raw(String json) {
        value();
        out.append(json);
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }

    private boolean pendingKey;

    private void value() {
        if (pendingKey) {
            pendingKey = false;
            return;
        }
        comma();
    }

    private void comma() {
        boolean[] first = open.peek();
        if (first == null) return;
        if (first[0]) out.append(',');
        first[0] = true;
    }

    private void quote(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
            }
        }
        out.append('"');
    }
}
