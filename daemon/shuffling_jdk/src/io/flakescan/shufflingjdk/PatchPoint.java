package io.flakescan.shufflingjdk;

/**
 * One patched JDK method: where it is, how it is patched, what it passes to the helper, and the
 * label ("api") its site keys carry. className and descriptors are JVM internal names.
 *
 * <p>Kinds: {@link Kind#WRAP_RETURN} hands the value the method returns (an iterator,
 * enumeration, spliterator or array) to {@code FlakescanShuffle.patchedReturn} and returns what
 * comes back; {@link Kind#REDIRECT_ENTRY} first asks {@code FlakescanShuffle.patchedEntry} to run
 * the method's loop itself (forEach, toString) and runs the original body when it declines.
 * handler tells the helper what the value or loop is ("iterator keys", "array size", ...).
 */
record PatchPoint(String className, String method, String descriptor, Kind kind, Operand owner, Operand aux,
                  String api, String handler) {

    enum Kind { WRAP_RETURN, REDIRECT_ENTRY }

    /** "java.util.HashMap$KeySet.iterator()Ljava/util/Iterator;", as prepared.json lists it. */
    String id() {
        return className.replace('/', '.') + "." + method + descriptor;
    }

    /**
     * What a patch pushes as owner or aux: nothing (null), {@code this}, or a field of
     * {@code this} (declaredIn: the class that declares it, e.g. an inner class's this$0).
     */
    record Operand(String field, String declaredIn, String descriptor) {
        static final Operand NONE = new Operand(null, null, null);
        static final Operand THIS = new Operand("this", null, null);

        static Operand field(String declaredIn, String field, String descriptor) {
            return new Operand(field, declaredIn, descriptor);
        }

        /** The enclosing instance of an inner class. */
        static Operand outer(String innerClass, String outerClass) {
            return field(innerClass, "this$0", "L" + outerClass + ";");
        }

        boolean isField() {
            return declaredIn != null;
        }
    }
}
