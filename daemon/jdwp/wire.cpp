#include "jdwp/wire.hpp"

#include <bit>
#include <cstring>

namespace flakescan::jdwp {

using util::Errc;
using util::fail;

util::Result<void> validate(const IdSizes& s) {
  for (int n : {s.field, s.method, s.object, s.reference_type, s.frame}) {
    if (n < 1 || n > 8) return fail(Errc::malformed, "id size " + std::to_string(n) + " is outside 1..8");
  }
  return {};
}

bool is_known_tag(std::uint8_t tag) {
  switch (tag) {
    case '[': case 'B': case 'C': case 'L': case 'F': case 'D': case 'I': case 'J':
    case 'S': case 'V': case 'Z': case 's': case 't': case 'g': case 'l': case 'c':
      return true;
    default:
      return false;
  }
}

bool is_object_tag(Tag tag) {
  switch (tag) {
    case Tag::array: case Tag::object: case Tag::string: case Tag::thread:
    case Tag::thread_group: case Tag::class_loader: case Tag::class_object:
      return true;
    default:
      return false;
  }
}

Tag tag_for_signature(std::string_view sig) {
  if (sig.empty()) return Tag::void_;
  if (sig == "Ljava/lang/String;") return Tag::string;
  auto c = static_cast<std::uint8_t>(sig.front());
  if (!is_known_tag(c)) return Tag::object;
  return static_cast<Tag>(c);
}

Value Value::float64(double d) { return {Tag::double_, std::bit_cast<std::uint64_t>(d)}; }
Value Value::float32(float f) { return {Tag::float_, std::bit_cast<std::uint32_t>(f)}; }
double Value::as_double() const { return std::bit_cast<double>(bits); }
float Value::as_float() const { return std::bit_cast<float>(static_cast<std::uint32_t>(bits)); }

int untagged_size(Tag tag, const IdSizes& sizes) {
  switch (tag) {
    case Tag::byte_: case Tag::boolean: return 1;
    case Tag::char_: case Tag::short_: return 2;
    case Tag::int_: case Tag::float_: return 4;
    case Tag::long_: case Tag::double_: return 8;
    case Tag::void_: return 0;
    default: return sizes.object;
  }
}

int id_size(const IdSizes& sizes, IdKind kind) {
  switch (kind) {
    case IdKind::object: return sizes.object;
    case IdKind::reference_type: return sizes.reference_type;
    case IdKind::method: return sizes.method;
    case IdKind::field: return sizes.field;
    case IdKind::frame: return sizes.frame;
  }
  return 8;
}

// ---- framing ----------------------------------------------------------------------------

util::Result<std::size_t> decode_handshake(ByteView bytes) {
  const std::size_t n = std::min(bytes.size(), handshake_text.size());
  if (std::memcmp(bytes.data(), handshake_text.data(), n) != 0) {
    return fail(Errc::malformed, "not a JDWP handshake");
  }
  if (n < handshake_text.size()) return fail(Errc::need_more, "handshake incomplete");
  return handshake_text.size();
}

Bytes encode_handshake() { return Bytes(handshake_text.begin(), handshake_text.end()); }

util::Result<Framed> decode_packet(ByteView bytes, std::size_t max_size) {
  if (bytes.size() < 4) return fail(Errc::need_more, "packet length incomplete");
  const std::uint32_t length = (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) |
                               (std::uint32_t{bytes[2]} << 8) | std::uint32_t{bytes[3]};
  if (length < header_size) return fail(Errc::malformed, "packet length " + std::to_string(length) + " below header size");
  if (length > max_size) return fail(Errc::too_large, "packet of " + std::to_string(length) + " bytes over the limit");
  if (bytes.size() < length) return fail(Errc::need_more, "packet incomplete");
  Framed f;
  Packet& p = f.packet;
  p.id = (std::uint32_t{bytes[4]} << 24) | (std::uint32_t{bytes[5]} << 16) | (std::uint32_t{bytes[6]} << 8) |
         std::uint32_t{bytes[7]};
  p.flags = bytes[8];
  if (p.is_reply()) {
    p.error = static_cast<std::uint16_t>((bytes[9] << 8) | bytes[10]);
  } else {
    p.command_set = bytes[9];
    p.command = bytes[10];
  }
  p.data.assign(bytes.begin() + header_size, bytes.begin() + length);
  f.consumed = length;
  return f;
}

Bytes encode_packet(const Packet& p) {
  Writer w(IdSizes{});
  w.reserve(header_size + p.data.size());
  w.be(header_size + p.data.size(), 4);
  w.be(p.id, 4);
  w.u8(p.flags);
  if (p.is_reply()) {
    w.be(p.error, 2);
  } else {
    w.u8(p.command_set);
    w.u8(p.command);
  }
  w.raw(p.data);
  return w.take();
}

// ---- Writer -------------------------------------------------------------------------------

void Writer::be(std::uint64_t v, int n) {
  std::uint8_t bytes[8];
  for (int i = 0; i < n; ++i) bytes[i] = static_cast<std::uint8_t>(v >> (8 * (n - 1 - i)));
  out_.insert(out_.end(), bytes, bytes + n);
}

void Writer::put(const std::string& s) {
  put(static_cast<std::int32_t>(s.size()));
  out_.insert(out_.end(), s.begin(), s.end());
}

void Writer::untagged(const Value& v) { be(v.bits, untagged_size(v.tag, sizes_)); }

void Writer::put(const Value& v) {
  put(v.tag);
  untagged(v);
}

void Writer::put(const Location& l) { (*this)(l.type_tag, l.class_id, l.method, l.index); }

// ---- Reader -------------------------------------------------------------------------------

void Reader::fail(std::string why) {
  if (!ok_) return;
  ok_ = false;
  error_ = util::Error{Errc::malformed, std::move(why)};
}

std::uint8_t Reader::u8() {
  if (!ok_) return 0;
  if (pos_ >= bytes_.size()) {
    fail("packet data ends early");
    return 0;
  }
  return bytes_[pos_++];
}

std::uint64_t Reader::be(int n) {
  if (!ok_) return 0;
  if (remaining() < static_cast<std::size_t>(n)) {
    fail("packet data ends early");
    return 0;
  }
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | bytes_[pos_++];
  return v;
}

bool Reader::check_count(std::int32_t n, std::size_t min_item_size) {
  if (!ok_) return false;
  if (n < 0) {
    fail("negative count " + std::to_string(n));
    return false;
  }
  if (static_cast<std::size_t>(n) * min_item_size > remaining()) {
    fail("count " + std::to_string(n) + " exceeds the packet");
    return false;
  }
  return true;
}

void Reader::get(std::string& s) {
  std::int32_t n = 0;
  get(n);
  if (!check_count(n, 1)) return;
  s.assign(reinterpret_cast<const char*>(bytes_.data() + pos_), static_cast<std::size_t>(n));
  pos_ += static_cast<std::size_t>(n);
}

void Reader::get(Bytes& bytes) {
  std::int32_t n = 0;
  get(n);
  if (!check_count(n, 1)) return;
  bytes.assign(bytes_.begin() + static_cast<std::ptrdiff_t>(pos_), bytes_.begin() + static_cast<std::ptrdiff_t>(pos_ + n));
  pos_ += static_cast<std::size_t>(n);
}

void Reader::get(Tag& t) {
  std::uint8_t b = u8();
  if (!ok_) return;
  if (!is_known_tag(b)) {
    fail("unknown value tag " + std::to_string(b));
    return;
  }
  t = static_cast<Tag>(b);
}

void Reader::get(TypeTag& t) {
  std::uint8_t b = u8();
  if (!ok_) return;
  if (b < 1 || b > 3) {
    fail("unknown type tag " + std::to_string(b));
    return;
  }
  t = static_cast<TypeTag>(b);
}

Value Reader::untagged(Tag tag) {
  Value v{tag, 0};
  const int n = untagged_size(tag, sizes_);
  std::uint64_t raw = be(n);
  // Integers are kept sign-extended so that Value::as_int() is right for every width.
  switch (tag) {
    case Tag::byte_: v.bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int8_t>(raw))); break;
    case Tag::short_: v.bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int16_t>(raw))); break;
    case Tag::int_: v.bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(raw))); break;
    default: v.bits = raw; break;
  }
  return v;
}

void Reader::get(Value& v) {
  Tag tag = Tag::void_;
  get(tag);
  if (!ok_) return;
  v = untagged(tag);
}

void Reader::get(UntaggedValue&) { fail("untagged values cannot be decoded without their field types"); }

void Reader::get(Location& l) { (*this)(l.type_tag, l.class_id, l.method, l.index); }

}  // namespace flakescan::jdwp
