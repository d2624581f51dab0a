package threadsprobe;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;

/** Threads that go a while without a scheduling point (the watchdog's stall limit, Busy), and
 *  what flakescan.threads.include leaves out. */
final class StallScenarios {
    private StallScenarios() {}

    static final class Result {
        int value;
    }

    /**
     * A thread that computes in JDK code (no scheduling point) for a tenth of a second or so of
     * its own CPU time while thread 0 waits for it in join. Run with Probe's spinners the
     * machine is loaded, and the wall clock passes 1 s long before the thread's CPU time does.
     */
    static void slowJdkWork() throws InterruptedException {
        Result r = new Result();
        Thread a = new Thread(() -> {
            r.value = 1;
            r.value = BigInteger.valueOf(7).pow(300_000).bitLength();
        });
        a.start();
        a.join();
        if (r.value < 2) throw new AssertionError("the work was not done");
    }

    /**
     * A thread runnable to the JVM but waiting in native code (a socket accept that times out
     * after 1.5 s) while thread 0 waits for it: it uses no CPU time, and must still leave
     * control after 1 s instead of holding the schedule.
     */
    static void nativeWait() throws Exception {
        Result r = new Result();
        Thread a = new Thread(() -> {
            r.value = 1;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                socket.setSoTimeout(1500);
                socket.accept().close();
            } catch (SocketTimeoutException e) {
                r.value = 2;
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        a.start();
        a.join();
        if (r.value != 2) throw new AssertionError("the accept did not time out");
    }

    /** Two threads add to a tally of a class under an excluded prefix (kotlin.). */
    static void excludedPrefix() throws InterruptedException {
        kotlin.flakescanprobe.Tally tally = new kotlin.flakescanprobe.Tally();
        Thread a = new Thread(tally::add);
        Thread b = new Thread(tally::add);
        a.start();
        b.start();
        a.join();
        b.join();
    }
}
