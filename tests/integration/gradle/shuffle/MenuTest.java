package com.example;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.Test;

/**
 * Implementation-dependent (technique shuffle): it assumes a HashMap iterates in insertion
 * order. For these four keys OpenJDK's HashMap happens to, so it passes in every run and every
 * order; under a shuffled iteration order it fails.
 */
public class MenuTest {
    @Test
    public void listsDrinksInOrder() {
        Map<String, Integer> prices = new HashMap<>();
        prices.put("cortado", 3);
        prices.put("espresso", 2);
        prices.put("mocha", 4);
        prices.put("latte", 4);
        List<String> names = new ArrayList<>();
        for (String name : prices.keySet()) names.add(name);
        assertEquals("[cortado, espresso, mocha, latte]", names.toString());
    }
}
