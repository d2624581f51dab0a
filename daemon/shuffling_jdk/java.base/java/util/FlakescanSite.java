package java.util;

/**
 * Where an eligible call came from. The site is the first stack frame outside the JDK (classes
 * in java., javax., jdk., sun., com.sun.); its key is "<api> at <frame>", e.g.
 * "HashMap.keySet iteration at com.x.Report.render(Report.java:41)". Calls from the test
 * machinery (JUnit's platform, engines and runners, flakescan's runner) have no site: they
 * are neither shuffled nor recorded, so discovery and the runner behave as on the plain JDK.
 */
final class FlakescanSite {
    static final int MAX_VIA = 4;
    static final int MAX_FRAMES = 12;
    /** How deep "frames" looks for the test machinery (and the test's frame above it). */
    static final int MAX_WALK = 256;

    private static final String[] JDK = {"java.", "javax.", "jdk.", "sun.", "com.sun."};
    private static final String[] MACHINERY = {
        "org.junit.platform.", "org.junit.jupiter.engine.", "org.junit.vintage.", "org.junit.runner.",
        "org.junit.runners.", "org.junit.internal.", "junit.framework.", "io.flakescan.runner.",
        "org.opentest4j.", "org.apiguardian.",
    };

    final String key;
    final String api;
    final long keyHash;
    /** The JDK methods between the patched one and the site, innermost first ("Class.method"). */
    final String[] via;
    /** The site and the non-JDK frames below it; empty when the key was already recorded. */
    final String[] frames;
    /** This call's index among the site's eligible calls since start (set by FlakescanState.admit). */
    long occurrence;

    FlakescanSite(String api, String key, String[] via, String[] frames) {
        this.api = api;
        this.key = key;
        this.keyHash = FlakescanPermutation.hash(key);
        this.via = via;
        this.frames = frames;
    }

    /** The site of the current call to a patched method, or null (no site, or the test machinery). */
    static FlakescanSite locate(String api) {
        return FlakescanState.WALKER.walk(new FlakescanWalk(api));
    }

    static boolean isJdk(String className) {
        return startsWithAny(className, JDK);
    }

    static boolean isMachinery(String className) {
        return startsWithAny(className, MACHINERY);
    }

    private static boolean startsWithAny(String s, String[] prefixes) {
        for (String p : prefixes) {
            if (s.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** StackTraceElement's form without module or loader: pkg.Class.method(File.java:41). */
    static String frameText(StackWalker.StackFrame f) {
        String file = f.getFileName();
        int line = f.getLineNumber();
        String where = file != null && line >= 0 ? file + ":" + line : "Unknown Source";
        return f.getClassName() + "." + f.getMethodName() + "(" + where + ")";
    }
}
