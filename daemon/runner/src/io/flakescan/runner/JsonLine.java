package io.flakescan.runner;

/** Builds one JSON object on one line; just enough JSON for the results stream. */
final class JsonLine {
    private final StringBuilder out = new StringBuilder("{");
    private boolean first = true;

    JsonLine put(String key, String value) {
        if (value == null) return this;
        key(key);
        quote(value);
        return this;
    }

    JsonLine put(String key, long value) {
        key(key);
        out.append(value);
        return this;
    }

    JsonLine put(String key, double value) {
        key(key);
        out.append(String.format(java.util.Locale.ROOT, "%.3f", value));
        return this;
    }

    /** A value that is JSON text already (an array the shuffling JDK wrote); null: left out. */
    JsonLine putRaw(String key, String json) {
        if (json == null) return this;
        key(key);
        out.append(json);
        return this;
    }

    @Override
    public String toString() {
        return out + "}";
    }

    private void key(String key) {
        if (!first) out.append(',');
        first = false;
        quote(key);
        out.append(':');
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
