package example.repair.app;

import java.time.Instant;
import java.util.Calendar;
import java.util.TimeZone;

/** The hour of the day of an instant in the JVM's default time zone (pair e):
 *  {@code TimeZone.getDefault()} reads {@code java.util.TimeZone.defaultTimeZone}. */
public final class DayStamp {
    private DayStamp() {}

    public static int localHour(Instant instant) {
        Calendar calendar = Calendar.getInstance(TimeZone.getDefault());
        calendar.setTimeInMillis(instant.toEpochMilli());
        return calendar.get(Calendar.HOUR_OF_DAY);
    }
}
