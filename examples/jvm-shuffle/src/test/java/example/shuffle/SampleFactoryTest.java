package example.shuffle;

import static org.junit.Assert.assertEquals;

import example.shuffle.app.Address;
import example.shuffle.app.SampleFactory;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.Test;

/** JUnit 4. Class.getDeclaredConstructors() read twice in main code (SampleFactory.constructors). */
public class SampleFactoryTest {
    private static final Map<String, String> EXPECTED = new TreeMap<>(Map.of(
            "()", "Address[street=null, city=null, zip=null]",
            "(String)", "Address[street=x, city=null, zip=null]",
            "(String,String)", "Address[street=x, city=x, zip=null]",
            "(String,String,String)", "Address[street=x, city=x, zip=x]"));

    /**
     * Implementation-dependent, whatever order the plain JDK uses: each sample must be
     * labelled with the constructor that made it. samples() pairs two getDeclaredConstructors()
     * walks by position. Fixed by sorting the constructors in constructors() so that both
     * walks agree.
     */
    @Test
    public void labelsEachSampleWithItsConstructor() {
        Map<String, String> described = new TreeMap<>();
        for (Map.Entry<String, Object> sample : new SampleFactory().samples(Address.class).entrySet()) {
            described.put(sample.getKey(), sample.getValue().toString());
        }
        assertEquals(EXPECTED, described);
    }

    /** Twin: one sample per constructor and one signature per constructor, compared as sets. */
    @Test
    public void makesOneSamplePerConstructor() {
        SampleFactory factory = new SampleFactory();
        Set<String> samples = new HashSet<>();
        for (Object sample : factory.instances(Address.class)) {
            samples.add(sample.toString());
        }
        assertEquals(new HashSet<>(EXPECTED.values()), samples);
        assertEquals(EXPECTED.keySet(), new HashSet<>(factory.signatures(Address.class)));
    }
}
