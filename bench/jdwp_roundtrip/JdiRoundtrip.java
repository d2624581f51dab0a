import com.sun.jdi.Bootstrap;
import com.sun.jdi.Location;
import com.sun.jdi.Method;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.LaunchingConnector;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.VMDeathEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import java.util.Map;

// The JDI side of the jdwp_roundtrip benchmark: the same round trip as engine.cpp (hit,
// read the top frame, resume) on the same fixture, through com.sun.jdi.
// Usage: java JdiRoundtrip <fixture.jar> <calls> [warmup]
public class JdiRoundtrip {
  public static void main(String[] args) throws Exception {
    String jar = args[0];
    int calls = Integer.parseInt(args[1]);
    int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 500;
    LaunchingConnector connector = Bootstrap.virtualMachineManager().defaultConnector();
    Map<String, Connector.Argument> arguments = connector.defaultArguments();
    arguments.get("options").setValue("-cp " + jar);
    arguments.get("main").setValue("flakescan.fixture.JdwpTarget hits " + calls);
    VirtualMachine vm = connector.launch(arguments);
    ClassPrepareRequest prepare = vm.eventRequestManager().createClassPrepareRequest();
    prepare.addClassFilter("flakescan.fixture.JdwpTarget");
    prepare.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
    prepare.enable();
    // No vm.resume() here: the VM is suspended by its VMStart event (suspend=y), and that
    // event set's resume() in the loop below resumes it, once. A vm.resume() here as well
    // resumed it twice: when the main thread was already stopped at the ClassPrepare of the
    // fixture (a busy machine delays the loop), the VMStart set's resume() let it run on
    // before the breakpoint was set, the program ended, and JDI failed with
    // VMDisconnectedException in methodsByName (bench run of 2026-11-28 under load).
    int hits = 0;
    long start = 0;
    boolean done = false;
    while (!done) {
      EventSet set = vm.eventQueue().remove();
      for (Event event : set) {
        if (event instanceof ClassPrepareEvent) {
          ReferenceType type = ((ClassPrepareEvent) event).referenceType();
          for (Method m : type.methodsByName("work")) {
            BreakpointRequest bp = vm.eventRequestManager().createBreakpointRequest(m.location());
            bp.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
            bp.enable();
          }
        } else if (event instanceof BreakpointEvent) {
          Location top = ((BreakpointEvent) event).thread().frame(0).location();
          if (!top.method().name().equals("work")) throw new IllegalStateException("top frame");
          if (++hits == warmup) start = System.nanoTime();
        } else if (event instanceof VMDeathEvent || event instanceof VMDisconnectEvent) {
          done = true;
        }
      }
      set.resume();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    int measured = hits - warmup;
    System.out.printf("jdi hits=%d measured=%d seconds=%.3f events_per_s=%.0f%n", hits, measured, seconds, measured / seconds);
    System.exit(hits == calls ? 0 : 1);
  }
}
