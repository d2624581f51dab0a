package example.shuffle.app;

import java.lang.reflect.Field;
import java.util.List;
import java.util.StringJoiner;

/**
 * Exports objects as CSV: a header line with the field names, then one line per object.
 * Columns follow getDeclaredFields(), on the belief that it returns fields in declaration
 * order; the Javadoc says the elements "are not sorted and are not in any particular order".
 */
public final class CsvWriter {
    private CsvWriter() {}

    public static String write(List<?> rows, Class<?> type) {
        Field[] fields = type.getDeclaredFields(); // shuffle-site
        StringBuilder csv = new StringBuilder();
        StringJoiner header = new StringJoiner(",");
        for (Field field : fields) {
            field.setAccessible(true);
            header.add(field.getName());
        }
        csv.append(header).append('\n');
        for (Object row : rows) {
            StringJoiner line = new StringJoiner(",");
            for (Field field : fields) {
                line.add(String.valueOf(read(field, row)));
            }
            csv.append(line).append('\n');
        }
        return csv.toString();
    }

    private static Object read(Field field, Object row) {
        try {
            return field.get(row);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
