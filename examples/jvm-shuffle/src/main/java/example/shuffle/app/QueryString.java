package example.shuffle.app;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * URL query strings for the listing API. The API signs the query, so callers expect the
 * canonical form: parameters sorted by name.
 */
public final class QueryString {
    private QueryString() {}

    /** "name=value&name=value", in the order the map hands out its entries. */
    public static String encode(Map<String, String> params) {
        return params.entrySet().stream().map(QueryString::pair).collect(Collectors.joining("&")); // shuffle-site
    }

    public static Map<String, String> decode(String query) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return params;
    }

    private static String pair(Map.Entry<String, String> param) {
        return URLEncoder.encode(param.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(param.getValue(), StandardCharsets.UTF_8);
    }
}
