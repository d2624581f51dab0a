// Codec table tests on byte fixtures (tests/fixtures/jdwp): hand-made packets named by their
// notes, and a wire trace recorded from HotSpot by the session's trace option. Every packet
// is also framed when split at every byte boundary, and round-tripped.
#include <catch2/catch.hpp>

#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "jdwp/codec.hpp"
#include "jdwp/wire_log.hpp"

using namespace flakescan;
using namespace flakescan::jdwp;

namespace {

std::vector<TraceEntry> load(const std::string& name) {
  std::ifstream in(FLAKESCAN_SOURCE_DIR "/tests/fixtures/jdwp/" + name);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  auto entries = parse_trace(text.str());
  REQUIRE(entries);
  return *entries;
}

const TraceEntry& by_note(const std::vector<TraceEntry>& entries, const std::string& note) {
  for (const auto& e : entries) {
    if (e.note == note) return e;
  }
  FAIL("no fixture named " << note);
  return entries.front();
}

Packet packet_of(const TraceEntry& e) {
  auto framed = decode_packet(e.bytes);
  REQUIRE(framed);
  REQUIRE(framed->consumed == e.bytes.size());
  return framed->packet;
}

template <class T>
T decoded(const TraceEntry& e) {
  auto p = packet_of(e);
  auto v = decode<T>(p.data, e.sizes);
  INFO(e.note << ": " << (v ? "" : v.error().message));
  REQUIRE(v);
  return *v;
}

// Feeds `stream` to an incremental framer in two writes split at `cut`, like a socket would.
std::vector<Packet> frame_split(const Bytes& stream, std::size_t cut) {
  std::vector<Packet> out;
  Bytes inbox;
  auto pump = [&] {
    for (;;) {
      auto f = decode_packet(inbox);
      if (!f) {
        REQUIRE(f.error().code == util::Errc::need_more);
        return;
      }
      out.push_back(f->packet);
      inbox.erase(inbox.begin(), inbox.begin() + static_cast<std::ptrdiff_t>(f->consumed));
    }
  };
  inbox.insert(inbox.end(), stream.begin(), stream.begin() + static_cast<std::ptrdiff_t>(cut));
  pump();
  inbox.insert(inbox.end(), stream.begin() + static_cast<std::ptrdiff_t>(cut), stream.end());
  pump();
  REQUIRE(inbox.empty());
  return out;
}

// The command of every packet in a trace: requests by their header, replies by the request
// with the same id sent the other way.
std::vector<std::pair<const TraceEntry*, Command>> commands_of(const std::vector<TraceEntry>& entries) {
  std::vector<std::pair<const TraceEntry*, Command>> out;
  std::map<std::pair<bool, std::uint32_t>, Command> sent;
  for (const auto& e : entries) {
    if (e.handshake) continue;
    auto p = packet_of(e);
    if (p.is_reply()) {
      auto it = sent.find({!e.from_vm, p.id});
      if (it != sent.end() && p.error == 0) out.emplace_back(&e, it->second);
    } else if (auto c = find_command(p.command_set, p.command)) {
      sent[{e.from_vm, p.id}] = *c;
      out.emplace_back(&e, *c);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("hand-made fixtures decode to what the specification says", "[jdwp][codec]") {
  auto f = load("handmade.trace");

  auto sizes = decoded<VmIdSizes::Reply>(by_note(f, "idsizes reply"));
  CHECK(sizes.sizes == IdSizes{8, 8, 8, 8, 8});

  auto version = decoded<VmVersion::Reply>(by_note(f, "version reply"));
  CHECK(version.jdwp_major == 17);
  CHECK(version.jdwp_minor == 0);
  CHECK(version.vm_version == "17.0.15");
  CHECK(version.vm_name == "OpenJDK 64-Bit Server VM");

  auto classes = decoded<VmClassesBySignature::Reply>(by_note(f, "classes by signature reply"));
  REQUIRE(classes.classes.size() == 1);
  CHECK(classes.classes[0].type.value == 0x22);
  CHECK(classes.classes[0].status == 7);

  auto methods = decoded<RtMethods::Reply>(by_note(f, "methods reply"));
  REQUIRE(methods.methods.size() == 2);
  CHECK(methods.methods[0].name == "work");
  CHECK(methods.methods[0].signature == "(I)I");
  CHECK(methods.methods[1].method.value == 0x34);
  CHECK(methods.methods[1].modifiers == 9);

  auto lines = decoded<MLineTable::Reply>(by_note(f, "line table reply"));
  CHECK(lines.end == 7);
  REQUIRE(lines.lines.size() == 2);
  CHECK(lines.lines[1].code_index == 4);
  CHECK(lines.lines[1].line == 53);

  auto set = decoded<ErSet::Request>(by_note(f, "event request set with modifiers"));
  CHECK(set.kind == EventKind::breakpoint);
  CHECK(set.suspend == SuspendPolicy::event_thread);
  REQUIRE(set.modifiers.size() == 8);
  CHECK(set.modifiers[0] == Modifier::count_of(3));
  CHECK(set.modifiers[1] == Modifier::thread_only(ObjectId{0x11}));
  CHECK(set.modifiers[2] == Modifier::class_only(ReferenceTypeId{0x22}));
  CHECK(set.modifiers[3] == Modifier::class_match("flakescan.*"));
  CHECK(set.modifiers[4] == Modifier::class_exclude("java.*"));
  CHECK(set.modifiers[5] == Modifier::location_only(Location{TypeTag::class_, ReferenceTypeId{0x22}, MethodId{0x33}, 4}));
  CHECK(set.modifiers[6] == Modifier::instance_only(ObjectId{0x44}));
  CHECK(set.modifiers[7] == Modifier::step(ObjectId{0x11}, StepSize::line, StepDepth::over));
  CHECK(decoded<OneInt>(by_note(f, "event request set reply")).value == 9);

  auto slots = decoded<SfGetValues::Request>(by_note(f, "stack frame get values request"));
  REQUIRE(slots.slots.size() == 2);
  CHECK(slots.slots[1].tag == Tag::object);
  auto locals = decoded<ValueList>(by_note(f, "stack frame get values reply"));
  REQUIRE(locals.values.size() == 2);
  CHECK(locals.values[0] == Value::int32(-5));
  CHECK(locals.values[1] == Value::object(ObjectId{0x66}, Tag::string));

  auto ints = decoded<ArrayRegion>(by_note(f, "array region of ints"));
  CHECK(ints.tag == Tag::int_);
  REQUIRE(ints.values.size() == 3);
  CHECK(ints.values[2].as_int() == 4);
  auto objects = decoded<ArrayRegion>(by_note(f, "array region of objects"));
  REQUIRE(objects.values.size() == 2);
  CHECK(objects.values[0] == Value::object(ObjectId{0x88}));
  CHECK(objects.values[1].tag == Tag::string);
  CHECK(objects.values[1].bits == 0);

  auto invoke = decoded<CtInvokeMethod::Request>(by_note(f, "invoke static request"));
  REQUIRE(invoke.arguments.size() == 2);
  CHECK(invoke.arguments[0] == Value::int32(2));
  CHECK(invoke.arguments[1].as_double() == 1.5);
  CHECK(invoke.options == 1);
  auto invoked = decoded<InvokeReply>(by_note(f, "invoke reply"));
  CHECK(invoked.result == Value::int64(-2));
  CHECK(invoked.exception.bits == 0);

  auto error = packet_of(by_note(f, "error reply invalid object"));
  CHECK(error.is_reply());
  CHECK(error_name(error.error) == "INVALID_OBJECT");
  CHECK(error_from_jdwp(error.error, "x").code == util::Errc::not_found);

  auto status = decoded<TrStatus::Reply>(by_note(f, "thread status reply"));
  CHECK(status.thread_status == static_cast<std::int32_t>(ThreadStatus::wait));
  CHECK(status.suspend_status == suspend_status_suspended);
}

TEST_CASE("every event kind of a composite decodes with its payload", "[jdwp][codec]") {
  auto f = load("handmade.trace");
  auto set = decoded<EventSet>(by_note(f, "event composite of every kind"));
  CHECK(set.suspend == SuspendPolicy::all);
  std::vector<EventKind> kinds;
  for (const auto& e : set.events) kinds.push_back(e.kind);
  CHECK(kinds == std::vector<EventKind>{EventKind::vm_start, EventKind::breakpoint, EventKind::single_step,
                                        EventKind::class_prepare, EventKind::thread_start, EventKind::thread_death,
                                        EventKind::method_entry, EventKind::method_exit, EventKind::monitor_wait,
                                        EventKind::monitor_waited, EventKind::exception, EventKind::vm_death});
  CHECK(set.events[1].location == Location{TypeTag::class_, ReferenceTypeId{0x22}, MethodId{0x33}, 4});
  CHECK(set.events[3].signature == "Lflakescan/fixture/LateLoaded;");
  CHECK(set.events[3].type.value == 0x23);
  CHECK(set.events[8].object == Value::object(ObjectId{0x99}));
  CHECK(set.events[9].timed_out);
  CHECK(set.events[10].object.bits == 0xaa);
  CHECK(set.events[10].catch_location.class_id.value == 0);

  // Negotiated sizes are honoured: the same event with 4-byte ids.
  const auto& small = by_note(f, "event breakpoint with 4-byte ids");
  CHECK(small.sizes == IdSizes{4, 4, 4, 4, 4});
  auto bp = decoded<EventSet>(small);
  REQUIRE(bp.events.size() == 1);
  CHECK(bp.events[0].thread.value == 0x11);
  CHECK(bp.events[0].location.index == 4);
  CHECK(decoded<EventSet>(by_note(f, "event breakpoint")).events[0].location == bp.events[0].location);
  auto frames = decoded<TrFrames::Reply>(by_note(f, "frames reply with 4-byte ids"));
  REQUIRE(frames.frames.size() == 1);
  CHECK(frames.frames[0].frame.value == 0x11);
}

TEST_CASE("malformed packets are errors of that packet", "[jdwp][codec]") {
  auto f = load("handmade.trace");
  struct Case {
    const char* note;
    std::function<util::Result<Bytes>(ByteView, const IdSizes&)> decode_again;
  };
  auto as = [](Command c, Direction d) {
    return [c, d](ByteView data, const IdSizes& s) { return reencode(c, d, data, s); };
  };
  const std::vector<Case> cases = {
      {"malformed unknown event kind", as(Command::Event_Composite, Direction::request)},
      {"malformed event count too high", as(Command::Event_Composite, Direction::request)},
      {"malformed truncated string", as(Command::StringReference_Value, Direction::reply)},
      {"malformed negative count", as(Command::VirtualMachine_AllThreads, Direction::reply)},
      {"malformed trailing byte", as(Command::VirtualMachine_AllThreads, Direction::reply)},
      {"malformed unknown tag", as(Command::ReferenceType_GetValues, Direction::reply)},
      {"malformed suspend policy", as(Command::Event_Composite, Direction::request)},
  };
  for (const auto& c : cases) {
    INFO(c.note);
    const auto& e = by_note(f, c.note);
    auto p = packet_of(e);  // framing is fine: only the data is bad
    auto r = c.decode_again(p.data, e.sizes);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == util::Errc::malformed);
  }
}

TEST_CASE("framing: handshake, lengths, limits", "[jdwp][codec]") {
  const Bytes hs = encode_handshake();
  CHECK(hs.size() == 14);
  CHECK(decode_handshake(hs).value() == 14);
  for (std::size_t n = 0; n < hs.size(); ++n) {
    auto r = decode_handshake(ByteView(hs).first(n));
    REQUIRE_FALSE(r);
    CHECK(r.error().code == util::Errc::need_more);
  }
  const std::string bad = "JDWP-Handshook";
  auto wrong = decode_handshake(ByteView(reinterpret_cast<const std::uint8_t*>(bad.data()), bad.size()));
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().code == util::Errc::malformed);

  const Bytes short_length = {0, 0, 0, 10, 0, 0, 0, 1, 0, 1, 1};
  CHECK(decode_packet(short_length).error().code == util::Errc::malformed);
  const Bytes huge = {0x7f, 0, 0, 0, 0, 0, 0, 1, 0};
  CHECK(decode_packet(huge, 1 << 20).error().code == util::Errc::too_large);

  Packet command{.id = 7, .flags = 0, .command_set = 1, .command = 1, .error = 0, .data = {}};
  CHECK(encode_packet(command) == Bytes{0, 0, 0, 11, 0, 0, 0, 7, 0, 1, 1});
  Packet reply{.id = 7, .flags = reply_flag, .command_set = 0, .command = 0, .error = 41, .data = {9}};
  CHECK(encode_packet(reply) == Bytes{0, 0, 0, 12, 0, 0, 0, 7, 0x80, 0, 41, 9});
  CHECK(decode_packet(encode_packet(reply))->packet == reply);
}

TEST_CASE("encode-only layouts: SetValues writes untagged values in the field's size", "[jdwp][codec]") {
  IdSizes sizes{4, 4, 4, 4, 4};
  CtSetValues::Request set{ReferenceTypeId{0x22}, {FieldValue{FieldId{0x5}, UntaggedValue{Value::int32(42)}},
                                                   FieldValue{FieldId{0x6}, UntaggedValue{Value::boolean(true)}}}};
  CHECK(encode(set, sizes) == Bytes{0, 0, 0, 0x22, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 42, 0, 0, 0, 6, 1});
  auto back = reencode(Command::ClassType_SetValues, Direction::request, encode(set, sizes), sizes);
  REQUIRE_FALSE(back);
  CHECK(back.error().code == util::Errc::unsupported);
}

TEST_CASE("every fixture packet frames when split at any byte, and round-trips", "[jdwp][codec]") {
  for (const char* name : {"handmade.trace", "hotspot-hits.trace"}) {
    INFO(name);
    auto entries = load(name);
    // Framing: each direction as one stream, cut at every byte boundary.
    for (bool from_vm : {false, true}) {
      Bytes stream;
      std::vector<Packet> expected;
      for (const auto& e : entries) {
        if (e.handshake || e.from_vm != from_vm) continue;
        stream.insert(stream.end(), e.bytes.begin(), e.bytes.end());
        expected.push_back(packet_of(e));
        CHECK(encode_packet(expected.back()) == e.bytes);
      }
      for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
        auto got = frame_split(stream, cut);
        REQUIRE(got == expected);
      }
    }
    // Typed: decode + encode gives the same bytes, and every shorter prefix is malformed.
    int round_trips = 0;
    for (const auto& [e, command] : commands_of(entries)) {
      if (e->note.starts_with("malformed")) continue;
      auto p = packet_of(*e);
      const auto dir = p.is_reply() ? Direction::reply : Direction::request;
      auto again = reencode(command, dir, p.data, e->sizes);
      if (!again && again.error().code == util::Errc::unsupported) continue;
      INFO("line " << e->line << " " << e->note);
      REQUIRE(again);
      CHECK(*again == p.data);
      ++round_trips;
      for (std::size_t n = 0; n < p.data.size(); ++n) {
        auto cut = reencode(command, dir, ByteView(p.data).first(n), e->sizes);
        REQUIRE_FALSE(cut);
        CHECK(cut.error().code == util::Errc::malformed);
      }
    }
    CHECK(round_trips > 15);
  }
}

TEST_CASE("trace text: parse errors name the line", "[jdwp][codec]") {
  auto bad = parse_trace("# ok\n> 00zz\n");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("line 2") != std::string::npos);
  CHECK_FALSE(parse_trace("idsizes 8 8 9 8 8\n"));
  CHECK_FALSE(parse_trace("? handshake\n"));
  auto ok = parse_trace(format_trace_handshake(false) + format_trace_sizes({4, 4, 8, 8, 4}) +
                        format_trace_packet(true, Bytes{0, 0, 0, 11, 0, 0, 0, 1, 0x80, 0, 0}, "reply"));
  REQUIRE(ok);
  REQUIRE(ok->size() == 2);
  CHECK(ok->at(0).handshake);
  CHECK(ok->at(1).from_vm);
  CHECK(ok->at(1).sizes == IdSizes{4, 4, 8, 8, 4});
  CHECK(ok->at(1).note == "reply");
  CHECK(to_hex(*from_hex("00ff10")) == "00ff10");
}

TEST_CASE("names come from the tables", "[jdwp][codec]") {
  CHECK(command_name(1, 1).value() == "VirtualMachine.Version");
  CHECK(command_name(64, 100).value() == "Event.Composite");
  CHECK_FALSE(command_name(1, 99));
  CHECK(error_name(101) == "ABSENT_INFORMATION");
  CHECK(error_name(9999) == "error 9999");
  CHECK(error_from_jdwp(112, "x").code == util::Errc::disconnected);
  CHECK(tag_for_signature("Ljava/lang/String;") == Tag::string);
  CHECK(tag_for_signature("[I") == Tag::array);
  CHECK(tag_for_signature("J") == Tag::long_);
  CHECK(Value::float64(2.25).as_double() == 2.25);
  CHECK_FALSE(validate(IdSizes{8, 8, 0, 8, 8}));
}
