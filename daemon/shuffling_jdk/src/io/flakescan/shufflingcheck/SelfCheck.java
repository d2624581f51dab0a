package io.flakescan.shufflingcheck;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Prepare's check of a freshly made shuffling JDK: it must have java.util.FlakescanShuffle, a
 * shuffled HashSet must come out in another order than the plain one, a LinkedHashMap in its
 * own, and drain() must name this class as the site. Prints "self-check ok" or fails with one
 * line. Lives outside the excluded packages, so its calls are shuffled.
 */
public final class SelfCheck {
    private SelfCheck() {}

    public static void main(String[] args) throws Exception {
        Set<String> set = new HashSet<>();
        Map<String, Integer> linked = new LinkedHashMap<>();
        for (int i = 0; i < 16; i++) {
            set.add("element-" + i);
            linked.put("key-" + (15 - i), i);
        }
        List<String> plain = new ArrayList<>(set);
        List<String> linkedPlain = new ArrayList<>(linked.keySet());

        Class<?> shuffle = Class.forName("java.util.FlakescanShuffle");
        shuffle.getMethod("start", long.class, String.class, String.class).invoke(null, 1L, "full", null);
        List<String> shuffled = new ArrayList<>(set);
        List<String> linkedShuffled = new ArrayList<>(linked.keySet());
        String drained = (String) shuffle.getMethod("drain").invoke(null);
        shuffle.getMethod("stop").invoke(null);

        if (shuffled.equals(plain)) {
            fail("a HashSet kept its plain order under shuffling: " + plain);
        }
        if (!new HashSet<>(shuffled).equals(set) || shuffled.size() != set.size()) {
            fail("a shuffled HashSet lost or gained elements: " + shuffled);
        }
        if (!linkedShuffled.equals(linkedPlain)) {
            fail("a LinkedHashMap changed its order under shuffling: " + linkedShuffled);
        }
        if (!drained.contains("\"key\":\"HashMap.keySet toArray at io.flakescan.shufflingcheck.SelfCheck.main(")) {
            fail("drain() does not name the shuffled call: " + drained);
        }
        System.out.println("self-check ok");
    }

    private static void fail(String why) {
        System.out.println("self-check failed: " + why);
        System.exit(1);
    }
}
