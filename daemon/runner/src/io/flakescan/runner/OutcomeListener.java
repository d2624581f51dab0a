package io.flakescan.runner;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Folds what the platform reports for one entry (possibly several invocations and the class
 * container around them) into one outcome: a failing invocation wins, then a failing
 * container (class initialiser, @BeforeClass), then a pass, then a skip. A failure of one
 * invocation of a parameterised, repeated or dynamic test is told by its display name
 * ("[2] FR, 7: expected ..."), since the entry's id names only the method. Messages and
 * stacks are cut so that one results line stays small whatever a test throws.
 */
final class OutcomeListener implements TestExecutionListener {
    static final int MAX_STACK = 32 * 1024;
    static final int MAX_MESSAGE = 8 * 1024;

    static final class Result {
        String outcome = "error";
        String message = "no test was executed";
        String exception;
        String stack;

        JsonLine toJson() {
            return new JsonLine().put("event", "finished").put("outcome", outcome).put("message", message)
                    .put("exception", exception).put("stack", stack);
        }
    }

    private Throwable testFailure;
    private String failedInvocation;  // display name of the invocation that failed, if one did
    private Throwable containerFailure;
    private boolean passed;
    private String skipReason;

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        skipped(reason == null ? "skipped" : reason);
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        switch (result.getStatus()) {
            case SUCCESSFUL:
                if (id.isTest()) testPassed();
                break;
            case ABORTED:
                skipped(result.getThrowable().map(Throwable::getMessage).orElse("aborted"));
                break;
            case FAILED:
                Throwable t = result.getThrowable().orElse(new IllegalStateException("failed without an exception"));
                if (id.isTest()) testFailed(t, isInvocation(id) ? id.getDisplayName() : null);
                else containerFailed(t);
                break;
        }
    }

    // What an engine reports, in words of its own: the Platform listener above and JUnit4Group
    // both fold their events through these.

    /** The test (or one invocation of it, named) failed; the first failure is kept. */
    void testFailed(Throwable t, String invocation) {
        if (testFailure != null) return;
        testFailure = t;
        failedInvocation = invocation;
    }

    /** Something around the test failed: class initialiser, @BeforeClass/@BeforeAll, the class itself. */
    void containerFailed(Throwable t) {
        if (containerFailure == null) containerFailure = t;
    }

    /** Skipped (@Ignore, @Disabled) or aborted (a failed assumption). */
    void skipped(String reason) {
        if (skipReason == null) skipReason = reason;
    }

    /** The test (or one invocation of it) succeeded; a failure still wins over it, a skip does not. */
    void testPassed() {
        passed = true;
    }

    Result result() {
        Result r = new Result();
        Throwable failure = testFailure != null ? testFailure : containerFailure;
        if (failure != null) {
            r.outcome = failure instanceof AssertionError ? "fail" : "error";
            String message = String.valueOf(failure.getMessage());
            if (failure == testFailure && failedInvocation != null) message = failedInvocation + ": " + message;
            r.message = cut(message, MAX_MESSAGE);
            r.exception = failure.getClass().getName();
            r.stack = stackOf(failure);
        } else if (passed) {
            r.outcome = "pass";
            r.message = null;
        } else if (skipReason != null) {
            r.outcome = "skipped";
            r.message = skipReason;
        }
        return r;
    }

    /** One run of a test template (parameterised, repeated), a dynamic test (JUnit 5), or a
     *  row of a JUnit 4 Parameterized class ("method[0]"). */
    static boolean isInvocation(TestIdentifier id) {
        String last = id.getUniqueId();
        last = last.substring(last.lastIndexOf("/[") + 1);
        return last.startsWith("[test-template-invocation:") || last.startsWith("[dynamic-test:")
                || (last.startsWith("[test:") && id.getDisplayName().contains("["));
    }

    private static String stackOf(Throwable t) {
        StringWriter text = new StringWriter();
        t.printStackTrace(new PrintWriter(text));
        return cut(text.toString(), MAX_STACK);
    }

    static String cut(String s, int max) {
        return s.length() > max ? s.substring(0, max) + "\n\t... (cut: " + s.length() + " chars in all)" : s;
    }
}
