package example.repair;

import static org.junit.Assert.assertEquals;

import example.repair.app.DayStamp;
import java.time.Instant;
import org.junit.Test;

/** Pair e, victim: expects the epoch at hour 0 (true in the JVM's own default zone, UTC on
 *  the machines that run the examples). */
public class TimeZoneVictimTest {
    @Test
    public void epochIsMidnight() {
        assertEquals(0, DayStamp.localHour(Instant.ofEpochSecond(0)));
    }
}
