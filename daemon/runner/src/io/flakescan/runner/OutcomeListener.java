package io.flakescan.runner;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Folds what the platform reports for one entry (possibly several invocations and the class
 * container around them) into one outcome: a failing invocation wins, then a failing
 * container (class initialiser, @BeforeClass), then a pass, then a skip.
 */
final class OutcomeListener implements TestExecutionListener {
    static final int MAX_STACK = 32 * 1024;

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
    private Throwable containerFailure;
    private boolean passed;
    private String skipReason;

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        if (skipReason == null) skipReason = reason == null ? "skipped" : reason;
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        switch (result.getStatus()) {
            case SUCCESSFUL:
                if (id.isTest()) passed = true;
                break;
            case ABORTED:
                if (skipReason == null) skipReason = result.getThrowable().map(Throwable::getMessage).orElse("aborted");
                break;
            case FAILED:
                Throwable t = result.getThrowable().orElse(new IllegalStateException("failed without an exception"));
                if (id.isTest() && testFailure == null) testFailure = t;
                else if (!id.isTest() && containerFailure == null) containerFailure = t;
                break;
        }
    }

    Result result() {
        Result r = new Result();
        Throwable failure = testFailure != null ? testFailure : containerFailure;
        if (failure != null) {
            r.outcome = failure instanceof AssertionError ? "fail" : "error";
            r.message = String.valueOf(failure.getMessage());
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

    private static String stackOf(Throwable t) {
        StringWriter text = new StringWriter();
        t.printStackTrace(new PrintWriter(text));
        String s = text.toString();
        return s.length() > MAX_STACK ? s.substring(0, MAX_STACK) + "\n\t... (cut)" : s;
    }
}
