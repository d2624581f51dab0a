package java.util;

/**
 * What drain() reports for one site key: {"key","api","via","frames","seen","shuffled","size"}
 * (seen: eligible calls; shuffled: calls actually permuted; size: the largest element count).
 * Guarded by FlakescanState's lock.
 */
final class FlakescanRecord {
    final String key;
    final String api;
    final String[] via;
    final String[] frames;
    long seen;
    long shuffled;
    int size;

    FlakescanRecord(String key, String api, String[] via, String[] frames) {
        this.key = key;
        this.api = api;
        this.via = via;
        this.frames = frames;
    }

    void appendJson(StringBuilder out) {
        out.append("{\"key\":");
        string(out, key);
        out.append(",\"api\":");
        string(out, api);
        out.append(",\"via\":");
        strings(out, via);
        out.append(",\"frames\":");
        strings(out, frames);
        out.append(",\"seen\":").append(seen);
        out.append(",\"shuffled\":").append(shuffled);
        out.append(",\"size\":").append(size);
        out.append('}');
    }

    private static void strings(StringBuilder out, String[] values) {
        out.append('[');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            string(out, values[i]);
        }
        out.append(']');
    }

    /** A JSON string; everything outside printable ASCII as \\uXXXX, so the text is ASCII. */
    static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                out.append("\\u");
                String hex = Integer.toHexString(c);
                for (int pad = hex.length(); pad < 4; pad++) {
                    out.append('0');
                }
                out.append(hex);
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
