package io.flakescan.shufflingjdk;

/** A preparation step failed; the message is the one line Prepare prints. */
final class PrepareException extends Exception {
    private static final long serialVersionUID = 1L;

    PrepareException(String message) {
        super(message);
    }

    PrepareException(String message, Throwable cause) {
        super(message, cause);
    }
}
