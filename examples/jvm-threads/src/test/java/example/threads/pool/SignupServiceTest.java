package example.threads.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** JUnit 5. A pool task that outlives the test: the welcome mail is sent on the outbox's pool thread. */
class SignupServiceTest {
    private final Outbox outbox = new Outbox();

    @AfterEach
    void closeOutbox() throws InterruptedException {
        outbox.close();
    }

    @Test
    void registeringSendsTheWelcomeMail() {
        SignupService.Account account = new SignupService(outbox).register(" Ada ", "ada@example.com", "correct horse");
        assertEquals("ada", account.name());
        assertEquals(1, outbox.sent());
    }

    @Test
    void registeringSendsTheWelcomeMailOnceTheOutboxIsClosed() throws InterruptedException {
        SignupService.Account account = new SignupService(outbox).register(" Ada ", "ada@example.com", "correct horse");
        assertEquals("ada", account.name());
        outbox.close();
        assertEquals(1, outbox.sent());
    }
}
