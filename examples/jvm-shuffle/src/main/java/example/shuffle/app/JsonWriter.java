package example.shuffle.app;

import java.lang.reflect.Field;
import java.util.StringJoiner;

/**
 * A minimal JSON serialiser for data holders with public fields. Members come out in
 * getFields() order, which the Javadoc leaves unspecified.
 */
public final class JsonWriter {
    private JsonWriter() {}

    public static String write(Object value) {
        StringJoiner json = new StringJoiner(",", "{", "}");
        for (Field field : value.getClass().getFields()) { // shuffle-site
            json.add(quote(field.getName()) + ":" + literal(read(field, value)));
        }
        return json.toString();
    }

    private static String literal(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        return quote(value.toString());
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static Object read(Field field, Object value) {
        try {
            return field.get(value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
