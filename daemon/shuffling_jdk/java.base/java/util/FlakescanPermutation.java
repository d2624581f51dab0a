package java.util;

import java.nio.charset.StandardCharsets;

/**
 * Seeded permutations of our own: SplitMix64 seeded from (seed, key hash, x), then Fisher-Yates.
 * A drawn identity is drawn again (at most 16 times, then rotated by one), so a shuffled call
 * always changes the order; for 2 elements that means swapped. Key hashes are FNV-1a 64 over
 * the key's UTF-8 bytes: stable across JVMs and JDK versions.
 */
final class FlakescanPermutation {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private static final int ATTEMPTS = 16;

    private long state;

    private FlakescanPermutation(long state) {
        this.state = state;
    }

    /** position i serves element order[i], for n >= 2 elements; not the identity. */
    static int[] draw(long seed, long keyHash, long x, int n) {
        FlakescanPermutation random = new FlakescanPermutation(mix(mix(mix(seed + GOLDEN) ^ keyHash) ^ x));
        int[] order = new int[n];
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            for (int i = n - 1; i > 0; i--) {
                int j = random.below(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            if (!isIdentity(order)) {
                return order;
            }
        }
        for (int i = 0; i < n; i++) {
            order[i] = (i + 1) % n;
        }
        return order;
    }

    static long hash(String key) {
        long h = 0xcbf29ce484222325L;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return h;
    }

    private static boolean isIdentity(int[] order) {
        for (int i = 0; i < order.length; i++) {
            if (order[i] != i) {
                return false;
            }
        }
        return true;
    }

    private int below(int bound) {
        return (int) Long.remainderUnsigned(next(), bound);
    }

    private long next() {
        state += GOLDEN;
        return mix(state);
    }

    /** SplitMix64's finaliser (Stafford's variant 13). */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
