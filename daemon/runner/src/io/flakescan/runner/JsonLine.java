package io.flakescan.runner;

/** Builds one JSON object on one line; just enough JSON for the results stream. */
final class JsonLine {
    private static final char[] HEX = "0123456789abcdef".toCharArray();
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

    JsonLine put(String key, boolean value) {
        key(key);
        out.append(value);
        return this;
    }

    JsonLine put(String key, double value) {
        key(key);
        appendMillis(out, value);
        return this;
    }

    /**
     * A value with three decimals ("12.345"), written by hand: String.format's first call in a
     * JVM parses its pattern with a regex and loads the locale data, about 18 ms that every run
     * paid after the daemon's instruction. Not finite (never a duration): 0.
     */
    static void appendMillis(StringBuilder to, double value) {
        if (!Double.isFinite(value)) value = 0;
        long thousandths = Math.round(Math.abs(value) * 1000);
        if (value < 0 && thousandths != 0) to.append('-');
        long fraction = thousandths % 1000;
        to.append(thousandths / 1000).append('.');
        if (fraction < 100) to.append('0');
        if (fraction < 10) to.append('0');
        to.append(fraction);
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
                    if (c < 0x20) out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
                    else out.append(c);
            }
        }
        out.append('"');
    }
}
