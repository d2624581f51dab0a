#pragma once
// JDWP wire primitives: framing, the handshake, ids of negotiated size, values, locations,
// and the Reader/Writer pair every command codec is written against. Pure: no I/O, no logs.
//
// Handshake (both directions, ASCII, no terminator):
//   +----------------+
//   | JDWP-Handshake |   14 bytes
//   +----------------+
// Packet header (big-endian), 11 bytes, then `length - 11` bytes of data:
//   0       4       8     9         10        11
//   +-------+-------+-----+---------+---------+---------------+
//   |length |  id   |flags| cmd set | command |  data ...     |   command (flags = 0x00)
//   +-------+-------+-----+---------+---------+---------------+
//   |length |  id   |flags|   error code      |  data ...     |   reply   (flags = 0x80)
//   +-------+-------+-----+-------------------+---------------+
// Ids (object, reference type, method, field, frame) are 1..8 bytes, sizes negotiated with
// VirtualMachine.IDSizes and passed explicitly (IdSizes). Strings: int32 length + UTF-8.
// A tagged value is a tag byte followed by the value in the size the tag implies; a
// location is type tag (1) + class id + method id + int64 code index.
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.hpp"

namespace flakescan::jdwp {

using Bytes = std::vector<std::uint8_t>;
using ByteView = std::span<const std::uint8_t>;

inline constexpr std::string_view handshake_text = "JDWP-Handshake";
inline constexpr std::size_t header_size = 11;
inline constexpr std::uint8_t reply_flag = 0x80;
// Largest packet accepted by default; real replies (AllClasses of a big app) stay far below.
inline constexpr std::size_t default_max_packet = 64u << 20;

struct IdSizes {
  int field = 8;
  int method = 8;
  int object = 8;
  int reference_type = 8;
  int frame = 8;
  friend bool operator==(const IdSizes&, const IdSizes&) = default;
};
util::Result<void> validate(const IdSizes& sizes);

enum class IdKind : std::uint8_t { object, reference_type, method, field, frame };
// The negotiated size of one kind of id: the one lookup Writer and Reader share.
int id_size(const IdSizes& sizes, IdKind kind);

template <IdKind K>
struct Id {
  std::uint64_t value = 0;
  explicit operator bool() const { return value != 0; }
  friend auto operator<=>(const Id&, const Id&) = default;
};
using ObjectId = Id<IdKind::object>;  // also threadID, stringID, arrayID, classObjectID ...
using ReferenceTypeId = Id<IdKind::reference_type>;  // also classID, interfaceID
using MethodId = Id<IdKind::method>;
using FieldId = Id<IdKind::field>;
using FrameId = Id<IdKind::frame>;

// Value tags ("Tag Constants").
enum class Tag : std::uint8_t {
  array = '[', byte_ = 'B', char_ = 'C', object = 'L', float_ = 'F', double_ = 'D',
  int_ = 'I', long_ = 'J', short_ = 'S', void_ = 'V', boolean = 'Z', string = 's',
  thread = 't', thread_group = 'g', class_loader = 'l', class_object = 'c',
};
bool is_known_tag(std::uint8_t tag);
bool is_object_tag(Tag tag);
// Tag for the first character of a JNI signature ("I", "Ljava/lang/String;", "[I").
Tag tag_for_signature(std::string_view signature);

enum class TypeTag : std::uint8_t { class_ = 1, interface = 2, array = 3 };

// A value of any type: `bits` holds the primitive's raw bits (float/double as IEEE bits,
// sign-extended integers) or the object id. Tag::void_ carries nothing.
struct Value {
  Tag tag = Tag::void_;
  std::uint64_t bits = 0;

  static Value boolean(bool b) { return {Tag::boolean, b ? 1u : 0u}; }
  static Value int32(std::int32_t v) { return {Tag::int_, static_cast<std::uint64_t>(static_cast<std::int64_t>(v))}; }
  static Value int64(std::int64_t v) { return {Tag::long_, static_cast<std::uint64_t>(v)}; }
  static Value object(ObjectId id, Tag t = Tag::object) { return {t, id.value}; }
  static Value float64(double d);
  static Value float32(float f);
  bool is_object() const { return is_object_tag(tag); }
  ObjectId object_id() const { return ObjectId{bits}; }
  std::int64_t as_int() const { return static_cast<std::int64_t>(bits); }
  double as_double() const;
  float as_float() const;
  friend bool operator==(const Value&, const Value&) = default;
};

struct Location {
  TypeTag type_tag = TypeTag::class_;
  ReferenceTypeId class_id;
  MethodId method;
  std::uint64_t index = 0;
  friend bool operator==(const Location&, const Location&) = default;
};

// An untagged value in a request whose type the receiver knows (ClassType.SetValues):
// encode-only; see commands.hpp.
struct UntaggedValue {
  Value value;
};

// ---- framing ----------------------------------------------------------------------------

struct Packet {
  std::uint32_t id = 0;
  std::uint8_t flags = 0;
  std::uint8_t command_set = 0;  // commands only
  std::uint8_t command = 0;      // commands only
  std::uint16_t error = 0;       // replies only
  Bytes data;

  bool is_reply() const { return (flags & reply_flag) != 0; }
  friend bool operator==(const Packet&, const Packet&) = default;
};

// Number of handshake bytes consumed (14), need_more, or malformed.
util::Result<std::size_t> decode_handshake(ByteView bytes);
Bytes encode_handshake();

struct Framed {
  Packet packet;
  std::size_t consumed = 0;
};
// One packet from the front of `bytes`: need_more when incomplete, too_large when the length
// exceeds max_size, malformed when the length is below the header size.
util::Result<Framed> decode_packet(ByteView bytes, std::size_t max_size = default_max_packet);
Bytes encode_packet(const Packet& packet);

// ---- Reader / Writer ------------------------------------------------------------------------
// Codec structs describe their layout once, in `template <class A, class S> static void
// fields(A& a, S& s)`; Writer walks it to encode, Reader to decode. The Reader keeps the
// first error and turns every later read into a no-op, so a layout function needs no checks.

class Writer {
 public:
  explicit Writer(const IdSizes& sizes) : sizes_(sizes) {}
  Bytes take() { return std::move(out_); }
  const IdSizes& sizes() const { return sizes_; }
  void reserve(std::size_t n) { out_.reserve(n); }

  void u8(std::uint8_t v) { out_.push_back(v); }
  void be(std::uint64_t v, int n);
  void raw(ByteView bytes) { out_.insert(out_.end(), bytes.begin(), bytes.end()); }

  void put(bool v) { u8(v ? 1 : 0); }
  void put(std::uint8_t v) { u8(v); }
  void put(std::int32_t v) { be(static_cast<std::uint32_t>(v), 4); }
  void put(std::int64_t v) { be(static_cast<std::uint64_t>(v), 8); }
  void put(std::uint64_t v) { be(v, 8); }
  void put(const std::string& s);
  void put(Tag t) { u8(static_cast<std::uint8_t>(t)); }
  void put(TypeTag t) { u8(static_cast<std::uint8_t>(t)); }
  template <IdKind K>
  void put(const Id<K>& id) { be(id.value, size_of(K)); }
  void put(const Value& v);  // tagged
  void put(const UntaggedValue& v) { untagged(v.value); }
  void put(const Location& l);
  template <class T>
  void put(const std::vector<T>& items) {
    put(static_cast<std::int32_t>(items.size()));
    for (const auto& item : items) put(item);
  }
  void put(const Bytes& bytes) {
    put(static_cast<std::int32_t>(bytes.size()));
    raw(bytes);
  }
  template <class T>
    requires requires(Writer& w, const T& t) { T::fields(w, t); }
  void put(const T& s) { T::fields(*this, s); }

  void untagged(const Value& v);
  int size_of(IdKind k) const { return id_size(sizes_, k); }

  template <class... T>
  void operator()(const T&... items) { (put(items), ...); }

 private:
  IdSizes sizes_;
  Bytes out_;
};

class Reader {
 public:
  Reader(ByteView bytes, const IdSizes& sizes) : bytes_(bytes), sizes_(sizes) {}

  bool ok() const { return ok_; }
  const util::Error& error() const { return error_; }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  const IdSizes& sizes() const { return sizes_; }
  // Marks the packet malformed (first error wins).
  void fail(std::string why);

  std::uint8_t u8();
  std::uint64_t be(int n);

  void get(bool& v) { v = u8() != 0; }
  void get(std::uint8_t& v) { v = u8(); }
  void get(std::int32_t& v) { v = static_cast<std::int32_t>(static_cast<std::uint32_t>(be(4))); }
  void get(std::int64_t& v) { v = static_cast<std::int64_t>(be(8)); }
  void get(std::uint64_t& v) { v = be(8); }
  void get(std::string& s);
  void get(Tag& t);
  void get(TypeTag& t);
  template <IdKind K>
  void get(Id<K>& id) { id.value = be(size_of(K)); }
  void get(Value& v);  // tagged
  void get(UntaggedValue& v);  // always fails: the type is not on the wire
  void get(Location& l);
  template <class T>
  void get(std::vector<T>& items) {
    std::int32_t n = 0;
    get(n);
    if (!check_count(n, 1)) return;
    items.clear();
    items.resize(static_cast<std::size_t>(n));
    for (auto& item : items) {
      get(item);
      if (!ok_) return;
    }
  }
  void get(Bytes& bytes);
  template <class T>
    requires requires(Reader& r, T& t) { T::fields(r, t); }
  void get(T& s) { T::fields(*this, s); }

  // Untagged value of a type known from context (array regions).
  Value untagged(Tag tag);
  // A count read from the wire must be >= 0 and fit in what is left (each item at least
  // `min_item_size` bytes): a hostile count never allocates.
  bool check_count(std::int32_t n, std::size_t min_item_size);
  int size_of(IdKind k) const { return id_size(sizes_, k); }

  template <class... T>
  void operator()(T&... items) { (get(items), ...); }

 private:
  ByteView bytes_;
  IdSizes sizes_;
  std::size_t pos_ = 0;
  bool ok_ = true;
  util::Error error_{util::Errc::malformed, ""};
};

// Size in bytes of a value of `tag` without its tag byte.
int untagged_size(Tag tag, const IdSizes& sizes);

}  // namespace flakescan::jdwp
