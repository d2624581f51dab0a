package example.repair;

import static org.junit.Assert.assertEquals;

import example.repair.app.DayStamp;
import java.time.Instant;
import java.util.TimeZone;
import org.junit.Test;

/** Pair e, polluter: makes Asia/Tokyo the JVM's default time zone and leaves it so. */
public class TimeZonePolluterTest {
    @Test
    public void stampsInTokyo() {
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
        assertEquals(9, DayStamp.localHour(Instant.ofEpochSecond(0)));
    }
}
