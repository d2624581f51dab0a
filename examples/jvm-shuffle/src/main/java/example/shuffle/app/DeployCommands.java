package example.shuffle.app;

/**
 * A command plugin. Every method is a command (CommandRegistry reflects over all declared
 * methods), so the class has no other methods.
 */
public final class DeployCommands {
    @Command
    public String deploy() {
        return "deployed build 42";
    }

    @Command
    public String rollback() {
        return "rolled back to build 41";
    }

    @Command
    public String status() {
        return "build 42 is live";
    }

    @Command
    public String promote() {
        return "promoted build 42 to production";
    }
}
