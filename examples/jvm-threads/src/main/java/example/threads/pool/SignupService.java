package example.threads.pool;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/** Signs users up: queues the welcome mail, then makes the account with its password hash. */
public class SignupService {
    private static final int HASH_ROUNDS = 2000;
    private final Outbox outbox;

    public SignupService(Outbox outbox) {
        this.outbox = outbox;
    }

    public record Account(String name, String email, String passwordHash) {}

    public Account register(String name, String email, String password) {
        outbox.send(email, "Welcome, " + name);
        return new Account(name.trim().toLowerCase(Locale.ROOT), email, hash(password));
    }

    /** SHA-256, HASH_ROUNDS times over: slow on purpose, as password hashes are. */
    static String hash(String password) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] h = password.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < HASH_ROUNDS; i++) {
                h = sha.digest(h);
            }
            return HexFormat.of().formatHex(h);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
