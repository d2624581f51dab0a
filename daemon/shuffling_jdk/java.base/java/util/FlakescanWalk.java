package java.util;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * One stack walk for {@link FlakescanSite#locate}: skips our own frames and the patched method,
 * keeps up to 4 JDK frames as "via", stops at the first frame outside the JDK (the site) and
 * walks on below it only when its key was not recorded yet (for "frames"). A named class, not a
 * lambda: code of ours must not bootstrap lambdas while a patched call is in progress.
 */
final class FlakescanWalk implements Function<Stream<StackWalker.StackFrame>, FlakescanSite> {
    private static final String OURS = "java.util.Flakescan";
    private static final String[] NONE = new String[0];

    private final String api;

    FlakescanWalk(String api) {
        this.api = api;
    }

    @Override
    public FlakescanSite apply(Stream<StackWalker.StackFrame> stream) {
        Iterator<StackWalker.StackFrame> frames = stream.iterator();
        boolean inPatchedMethod = false;
        String[] via = new String[FlakescanSite.MAX_VIA];
        int vias = 0;
        while (frames.hasNext()) {
            StackWalker.StackFrame f = frames.next();
            String className = f.getClassName();
            if (!inPatchedMethod) {
                // Our frames first; the first frame that is not ours is the patched method.
                inPatchedMethod = !className.startsWith(OURS);
                continue;
            }
            if (FlakescanSite.isJdk(className)) {
                if (vias < via.length) {
                    via[vias++] = className + "." + f.getMethodName();
                }
                continue;
            }
            if (FlakescanSite.isMachinery(className)) {
                return null;
            }
            String frame = FlakescanSite.frameText(f);
            String key = api + " at " + frame;
            String[] below = FlakescanState.isRecorded(key) ? NONE : below(frame, frames);
            return new FlakescanSite(api, key, Arrays.copyOf(via, vias), below);
        }
        return null;
    }

    /**
     * The site's frame and the next frames outside the JDK, down to the test machinery (the
     * frame above it is the test method, or a JUnit rule or extension), up to MAX_FRAMES in
     * all. When there are more, the last of the list is the one just above the machinery, so
     * that the test's own frame is always there (a fix may belong in the test).
     */
    private static String[] below(String site, Iterator<StackWalker.StackFrame> frames) {
        String[] out = new String[FlakescanSite.MAX_FRAMES];
        int n = 0;
        out[n++] = site;
        String lastBeforeMachinery = null;
        int walked = 0;
        while (frames.hasNext() && walked++ < FlakescanSite.MAX_WALK) {
            StackWalker.StackFrame f = frames.next();
            String className = f.getClassName();
            if (FlakescanSite.isJdk(className)) {
                continue;
            }
            if (FlakescanSite.isMachinery(className)) {
                break;
            }
            if (n < out.length) {
                out[n++] = FlakescanSite.frameText(f);
            } else {
                lastBeforeMachinery = FlakescanSite.frameText(f);
            }
        }
        if (lastBeforeMachinery != null) {
            out[out.length - 1] = lastBeforeMachinery;
        }
        return Arrays.copyOf(out, n);
    }
}
