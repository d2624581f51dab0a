package demo.android;

/** A text view that, like a real view, must not be used once its activity is destroyed. */
public final class StatusView {
    private String text = "";
    private boolean released;

    /** Main thread. */
    public void setText(String value) {
        if (released) {
            throw new IllegalStateException("StatusView used after its activity was destroyed");
        }
        text = value;
    }

    public String getText() {
        return text;
    }

    void release() {
        released = true;
    }
}
