#include "classfile/classfile.hpp"

#include <algorithm>

#include <bit>
#include <cstring>

namespace flakescan::classfile {

namespace {

// Bounds-checked big-endian reads. The first failure sticks: later reads return zeros and
// the parse stops at the next check, so the reported error is the first one met.
class Reader {
 public:
  explicit Reader(ByteView data) : data_(data) {}

  bool ok() const { return !error_; }
  std::size_t offset() const { return pos_; }
  std::size_t remaining() const { return data_.size() - pos_; }
  const util::Error& error() const { return *error_; }

  void fail(std::string what) { fail_at(pos_, std::move(what)); }
  void fail_at(std::size_t offset, std::string what) {
    if (!error_) error_ = util::Error{util::Errc::malformed, what + " at byte " + std::to_string(offset)};
  }

  bool need(std::size_t n, std::string_view what) {
    if (!ok()) return false;
    if (n > remaining()) {
      fail("truncated " + std::string(what) + ": needs " + std::to_string(n) + " bytes, " +
           std::to_string(remaining()) + " left");
      return false;
    }
    return true;
  }

  std::uint8_t u1(std::string_view what) { return static_cast<std::uint8_t>(read(1, what)); }
  std::uint16_t u2(std::string_view what) { return static_cast<std::uint16_t>(read(2, what)); }
  std::uint32_t u4(std::string_view what) { return static_cast<std::uint32_t>(read(4, what)); }
  std::uint64_t u8(std::string_view what) { return read(8, what); }

  ByteView bytes(std::size_t n, std::string_view what) {
    if (!need(n, what)) return {};
    ByteView out = data_.subspan(pos_, n);
    pos_ += n;
    return out;
  }

 private:
  std::uint64_t read(std::size_t n, std::string_view what) {
    if (!need(n, what)) return 0;
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v = (v << 8) | data_[pos_ + i];
    pos_ += n;
    return v;
  }

  ByteView data_;
  std::size_t pos_ = 0;
  std::optional<util::Error> error_;
};

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Modified UTF-8 (JVMS 4.4.7): no 0 byte, NUL as C0 80, no 4-byte forms, supplementary
// characters as two 3-byte surrogates. Surrogate pairs are joined; a lone surrogate (legal
// in a Java string literal) is kept in its 3-byte form.
std::optional<std::string> decode_modified_utf8(ByteView in) {
  std::vector<std::uint32_t> units;
  units.reserve(in.size());
  for (std::size_t i = 0; i < in.size();) {
    std::uint8_t b = in[i];
    if (b == 0 || b >= 0xF0) return std::nullopt;
    if (b < 0x80) {
      units.push_back(b);
      i += 1;
    } else if ((b & 0xE0) == 0xC0) {
      if (i + 1 >= in.size() || (in[i + 1] & 0xC0) != 0x80) return std::nullopt;
      units.push_back(((b & 0x1Fu) << 6) | (in[i + 1] & 0x3Fu));
      i += 2;
    } else if ((b & 0xF0) == 0xE0) {
      if (i + 2 >= in.size() || (in[i + 1] & 0xC0) != 0x80 || (in[i + 2] & 0xC0) != 0x80) return std::nullopt;
      units.push_back(((b & 0x0Fu) << 12) | ((in[i + 1] & 0x3Fu) << 6) | (in[i + 2] & 0x3Fu));
      i += 3;
    } else {
      return std::nullopt;  // a continuation byte where a character should start
    }
  }
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    std::uint32_t u = units[i];
    if (u >= 0xD800 && u <= 0xDBFF && i + 1 < units.size() && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF) {
      append_utf8(out, 0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00));
      ++i;
    } else {
      append_utf8(out, u);
    }
  }
  return out;
}

bool is_ref(ConstantTag t) {
  return t == ConstantTag::fieldref || t == ConstantTag::methodref || t == ConstantTag::interface_methodref;
}

std::string index_text(std::uint16_t index) { return "constant #" + std::to_string(index); }

void read_pool(Reader& r, ClassFile& c) {
  std::uint16_t count = r.u2("constant_pool_count");
  if (!r.ok()) return;
  if (count == 0) return r.fail("constant_pool_count 0");
  c.pool.assign(count, Constant{});
  for (std::uint16_t i = 1; i < count && r.ok(); ++i) {
    std::size_t at = r.offset();
    std::string what = index_text(i);
    Constant& k = c.pool[i];
    std::uint8_t tag = r.u1(what);
    if (!r.ok()) return;
    switch (tag) {
      case 1: {
        std::uint16_t length = r.u2(what + " (Utf8 length)");
        ByteView raw = r.bytes(length, what + " (Utf8 bytes)");
        if (!r.ok()) return;
        auto text = decode_modified_utf8(raw);
        if (!text) return r.fail_at(at, what + ": invalid modified UTF-8");
        k.text = std::move(*text);
        break;
      }
      case 3:
        k.int_value = static_cast<std::int32_t>(r.u4(what));
        break;
      case 4:
        k.float_value = std::bit_cast<float>(r.u4(what));
        break;
      case 5:
      case 6:
        if (i + 1 >= count) return r.fail_at(at, what + ": 8-byte constant in the last slot");
        if (tag == 5) {
          k.int_value = static_cast<std::int64_t>(r.u8(what));
        } else {
          k.float_value = std::bit_cast<double>(r.u8(what));
        }
        break;
      case 7:
      case 8:
      case 16:
      case 19:
      case 20:
        k.first = r.u2(what);
        break;
      case 9:
      case 10:
      case 11:
      case 12:
      case 17:
      case 18:
        k.first = r.u2(what);
        k.second = r.u2(what);
        break;
      case 15:
        k.reference_kind = r.u1(what);
        k.first = r.u2(what);
        if (r.ok() && (k.reference_kind < 1 || k.reference_kind > 9))
          return r.fail_at(at, what + ": MethodHandle reference_kind " + std::to_string(k.reference_kind));
        break;
      default:
        return r.fail_at(at, what + ": unknown tag " + std::to_string(tag));
    }
    k.tag = static_cast<ConstantTag>(tag);
    if (tag == 5 || tag == 6) ++i;  // the next slot stays unusable
  }
}

// Every reference between constants points at a constant of the right kind, so the
// accessors below can only fail on a hand-built ClassFile.
void check_pool(Reader& r, const ClassFile& c, std::size_t pool_end) {
  auto kind_at = [&](std::uint16_t index) {
    const Constant* k = c.constant(index);
    return k ? k->tag : ConstantTag::unusable;
  };
  for (std::size_t i = 1; i < c.pool.size() && r.ok(); ++i) {
    const Constant& k = c.pool[i];
    auto expect = [&](std::uint16_t index, std::initializer_list<ConstantTag> kinds, std::string_view role) {
      ConstantTag t = kind_at(index);
      for (ConstantTag want : kinds)
        if (t == want) return;
      r.fail_at(pool_end, index_text(static_cast<std::uint16_t>(i)) + " (" + std::string(tag_name(k.tag)) +
                              "): " + std::string(role) + " " + index_text(index) + " is " +
                              std::string(tag_name(t)));
    };
    switch (k.tag) {
      case ConstantTag::class_:
      case ConstantTag::string:
      case ConstantTag::method_type:
      case ConstantTag::module:
      case ConstantTag::package:
        expect(k.first, {ConstantTag::utf8}, "name");
        break;
      case ConstantTag::fieldref:
      case ConstantTag::methodref:
      case ConstantTag::interface_methodref:
        expect(k.first, {ConstantTag::class_}, "class");
        expect(k.second, {ConstantTag::name_and_type}, "name_and_type");
        break;
      case ConstantTag::name_and_type:
        expect(k.first, {ConstantTag::utf8}, "name");
        expect(k.second, {ConstantTag::utf8}, "descriptor");
        break;
      case ConstantTag::method_handle:
        if (k.reference_kind <= 4) {
          expect(k.first, {ConstantTag::fieldref}, "reference");
        } else {
          expect(k.first, {ConstantTag::methodref, ConstantTag::interface_methodref}, "reference");
        }
        break;
      case ConstantTag::dynamic:
      case ConstantTag::invoke_dynamic:
        expect(k.second, {ConstantTag::name_and_type}, "name_and_type");
        break;
      default:
        break;
    }
  }
}

std::vector<Attribute> read_attributes(Reader& r, const ClassFile& c, const std::string& owner) {
  std::vector<Attribute> out;
  std::uint16_t count = r.u2(owner + " attributes_count");
  for (std::uint16_t i = 0; i < count && r.ok(); ++i) {
    std::size_t at = r.offset();
    std::string what = owner + " attribute " + std::to_string(i);
    std::uint16_t name_index = r.u2(what + " name");
    std::uint32_t length = r.u4(what + " length");
    ByteView info = r.bytes(length, what + " info");
    if (!r.ok()) break;
    auto name = c.utf8(name_index);
    if (!name) {
      r.fail_at(at, what + ": name is not a Utf8 " + index_text(name_index));
      break;
    }
    out.push_back(Attribute{std::string(*name), Bytes(info.begin(), info.end())});
  }
  return out;
}

std::optional<Code> read_code(Reader& outer, const ClassFile& c, ByteView info, std::size_t base,
                              const std::string& owner) {
  Reader r(info);
  auto fail = [&] {
    // Report against the whole file's offsets.
    const util::Error& e = r.error();
    outer.fail_at(base, owner + " Code: " + e.message + " (within the attribute)");
    return std::nullopt;
  };
  Code code;
  code.max_stack = r.u2("max_stack");
  code.max_locals = r.u2("max_locals");
  std::uint32_t length = r.u4("code_length");
  if (r.ok() && (length == 0 || length > 65535)) r.fail("code_length " + std::to_string(length));
  ByteView bytecode = r.bytes(length, "code");
  if (!r.ok()) return fail();
  code.bytecode.assign(bytecode.begin(), bytecode.end());
  std::uint16_t handlers = r.u2("exception_table_length");
  for (std::uint16_t i = 0; i < handlers && r.ok(); ++i) {
    ExceptionHandler h;
    h.start_pc = r.u2("exception_table start_pc");
    h.end_pc = r.u2("exception_table end_pc");
    h.handler_pc = r.u2("exception_table handler_pc");
    h.catch_type = r.u2("exception_table catch_type");
    if (!r.ok()) break;
    if (h.start_pc >= h.end_pc || h.end_pc > length || h.handler_pc >= length)
      r.fail("exception_table entry " + std::to_string(i) + " outside the code");
    else if (h.catch_type != 0 && !c.class_name(h.catch_type))
      r.fail("exception_table entry " + std::to_string(i) + ": catch_type is not a Class");
    code.handlers.push_back(h);
  }
  if (!r.ok()) return fail();
  code.attributes = read_attributes(r, c, "Code");
  if (r.ok() && r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " trailing bytes");
  if (!r.ok()) return fail();
  return code;
}

std::vector<Member> read_members(Reader& r, const ClassFile& c, bool methods) {
  std::vector<Member> out;
  const char* kind = methods ? "method" : "field";
  std::uint16_t count = r.u2(methods ? "methods_count" : "fields_count");
  for (std::uint16_t i = 0; i < count && r.ok(); ++i) {
    std::size_t at = r.offset();
    std::string what = std::string(kind) + " " + std::to_string(i);
    Member m;
    m.access_flags = r.u2(what + " access_flags");
    std::uint16_t name_index = r.u2(what + " name_index");
    std::uint16_t descriptor_index = r.u2(what + " descriptor_index");
    if (!r.ok()) break;
    auto name = c.utf8(name_index);
    auto descriptor = c.utf8(descriptor_index);
    if (!name || !descriptor) {
      r.fail_at(at, what + ": name or descriptor is not a Utf8");
      break;
    }
    m.name = *name;
    m.descriptor = *descriptor;
    bool valid = methods ? method_slots(m.descriptor).has_value() : field_slots(m.descriptor).has_value();
    if (!valid) {
      r.fail_at(at, what + " " + m.name + ": bad descriptor \"" + m.descriptor + "\"");
      break;
    }
    what += " " + m.name;
    std::size_t attributes_at = r.offset() + 2;
    m.attributes = read_attributes(r, c, what);
    if (!r.ok()) break;
    // Find each attribute's offset again for error messages: name u2 + length u4 + info.
    std::size_t offset = attributes_at;
    for (const Attribute& a : m.attributes) {
      std::size_t info_at = offset + 6;
      offset = info_at + a.info.size();
      if (methods && a.name == "Code") {
        if (m.code) {
          r.fail_at(info_at, what + ": two Code attributes");
          break;
        }
        m.code = read_code(r, c, a.info, info_at, what);
        if (!r.ok()) break;
      } else if (!methods && a.name == "ConstantValue") {
        if (a.info.size() != 2) {
          r.fail_at(info_at, what + ": ConstantValue of length " + std::to_string(a.info.size()));
          break;
        }
        m.constant_value = static_cast<std::uint16_t>((a.info[0] << 8) | a.info[1]);
        const Constant* k = c.constant(m.constant_value);
        bool value = k && (k->tag == ConstantTag::integer || k->tag == ConstantTag::float_ ||
                           k->tag == ConstantTag::long_ || k->tag == ConstantTag::double_ ||
                           k->tag == ConstantTag::string);
        if (!value) {
          r.fail_at(info_at, what + ": ConstantValue " + index_text(m.constant_value) + " is not a value");
          break;
        }
      }
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

std::string_view tag_name(ConstantTag tag) noexcept {
  switch (tag) {
    case ConstantTag::unusable: return "unusable";
    case ConstantTag::utf8: return "Utf8";
    case ConstantTag::integer: return "Integer";
    case ConstantTag::float_: return "Float";
    case ConstantTag::long_: return "Long";
    case ConstantTag::double_: return "Double";
    case ConstantTag::class_: return "Class";
    case ConstantTag::string: return "String";
    case ConstantTag::fieldref: return "Fieldref";
    case ConstantTag::methodref: return "Methodref";
    case ConstantTag::interface_methodref: return "InterfaceMethodref";
    case ConstantTag::name_and_type: return "NameAndType";
    case ConstantTag::method_handle: return "MethodHandle";
    case ConstantTag::method_type: return "MethodType";
    case ConstantTag::dynamic: return "Dynamic";
    case ConstantTag::invoke_dynamic: return "InvokeDynamic";
    case ConstantTag::module: return "Module";
    case ConstantTag::package: return "Package";
  }
  return "unknown";
}

const Constant* ClassFile::constant(std::uint16_t index) const {
  if (index == 0 || index >= pool.size() || pool[index].tag == ConstantTag::unusable) return nullptr;
  return &pool[index];
}

util::Result<std::string_view> ClassFile::utf8(std::uint16_t index) const {
  const Constant* k = constant(index);
  if (!k || k->tag != ConstantTag::utf8) return util::fail(util::Errc::malformed, index_text(index) + " is not a Utf8");
  return std::string_view(k->text);
}

util::Result<std::string_view> ClassFile::class_name(std::uint16_t index) const {
  const Constant* k = constant(index);
  if (!k || k->tag != ConstantTag::class_) return util::fail(util::Errc::malformed, index_text(index) + " is not a Class");
  return utf8(k->first);
}

util::Result<MemberRef> ClassFile::member_ref(std::uint16_t index) const {
  const Constant* k = constant(index);
  if (!k || !is_ref(k->tag))
    return util::fail(util::Errc::malformed, index_text(index) + " is not a field or method ref");
  auto owner = class_name(k->first);
  if (!owner) return std::unexpected(owner.error());
  const Constant* nat = constant(k->second);
  if (!nat || nat->tag != ConstantTag::name_and_type)
    return util::fail(util::Errc::malformed, index_text(k->second) + " is not a NameAndType");
  auto name = utf8(nat->first);
  auto descriptor = utf8(nat->second);
  if (!name) return std::unexpected(name.error());
  if (!descriptor) return std::unexpected(descriptor.error());
  return MemberRef{std::string(*owner), std::string(*name), std::string(*descriptor)};
}

const Member* ClassFile::find_field(std::string_view field_name) const {
  for (const Member& f : fields)
    if (f.name == field_name) return &f;
  return nullptr;
}

const Member* ClassFile::find_method(std::string_view method_name, std::string_view descriptor) const {
  for (const Member& m : methods)
    if (m.name == method_name && (descriptor.empty() || m.descriptor == descriptor)) return &m;
  return nullptr;
}

namespace {

// Skips one element_value of an annotation (JVM spec 4.7.16.1); nested ones up to `depth`.
void skip_element_value(Reader& r, int depth) {
  const char tag = static_cast<char>(r.u1("element_value tag"));
  switch (tag) {
    case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z': case 's': case 'c':
      r.u2("element_value index");
      return;
    case 'e':
      r.u2("enum type");
      r.u2("enum constant");
      return;
    case '@':
      if (depth <= 0) return r.fail("annotations nested too deep");
      r.u2("annotation type");
      for (std::uint16_t n = r.u2("element_value_pairs"); n > 0 && r.ok(); --n) {
        r.u2("element name");
        skip_element_value(r, depth - 1);
      }
      return;
    case '[':
      if (depth <= 0) return r.fail("arrays nested too deep");
      for (std::uint16_t n = r.u2("array values"); n > 0 && r.ok(); --n) skip_element_value(r, depth - 1);
      return;
    default:
      r.fail(std::string("element_value tag '") + tag + "'");
  }
}

}  // namespace

util::Result<std::vector<std::string>> annotation_types(const ClassFile& owner, const std::vector<Attribute>& attributes) {
  std::vector<std::string> out;
  for (const Attribute& a : attributes) {
    if (a.name != "RuntimeVisibleAnnotations") continue;
    Reader r(ByteView(a.info.data(), a.info.size()));
    for (std::uint16_t n = r.u2("num_annotations"); n > 0 && r.ok(); --n) {
      auto type = owner.utf8(r.u2("annotation type"));
      if (!type) return std::unexpected(type.error());
      out.emplace_back(*type);
      for (std::uint16_t pairs = r.u2("element_value_pairs"); pairs > 0 && r.ok(); --pairs) {
        r.u2("element name");
        skip_element_value(r, 16);
      }
    }
    if (!r.ok()) return std::unexpected(r.error());
  }
  return out;
}

util::Result<ClassFile> parse_class(ByteView data, const Limits& limits) {
  if (data.size() > limits.max_class_bytes)
    return util::fail(util::Errc::too_large, "class file of " + std::to_string(data.size()) + " bytes, limit " +
                                                 std::to_string(limits.max_class_bytes));
  Reader r(data);
  ClassFile c;
  std::uint32_t m = r.u4("magic");
  if (r.ok() && m != magic) r.fail_at(0, "bad magic");
  c.minor_version = r.u2("minor_version");
  c.major_version = r.u2("major_version");
  if (r.ok() && (c.major_version < min_major_version || c.major_version > max_major_version))
    r.fail_at(6, "unsupported major_version " + std::to_string(c.major_version));
  if (r.ok()) read_pool(r, c);
  if (r.ok()) check_pool(r, c, r.offset());
  c.access_flags = r.u2("access_flags");
  std::size_t this_at = r.offset();
  std::uint16_t this_index = r.u2("this_class");
  std::uint16_t super_index = r.u2("super_class");
  if (r.ok()) {
    auto name = c.class_name(this_index);
    if (!name) {
      r.fail_at(this_at, "this_class: " + name.error().message);
    } else {
      c.name = *name;
    }
  }
  if (r.ok() && super_index != 0) {
    auto name = c.class_name(super_index);
    if (!name) {
      r.fail_at(this_at + 2, "super_class: " + name.error().message);
    } else {
      c.super_name = std::string(*name);
    }
  }
  std::uint16_t interfaces = r.u2("interfaces_count");
  for (std::uint16_t i = 0; i < interfaces && r.ok(); ++i) {
    std::size_t at = r.offset();
    std::uint16_t index = r.u2("interface");
    if (!r.ok()) break;
    auto name = c.class_name(index);
    if (!name) {
      r.fail_at(at, "interface " + std::to_string(i) + ": " + name.error().message);
    } else {
      c.interfaces.emplace_back(*name);
    }
  }
  if (r.ok()) c.fields = read_members(r, c, false);
  if (r.ok()) c.methods = read_members(r, c, true);
  if (r.ok()) c.attributes = read_attributes(r, c, "class");
  if (r.ok() && r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " trailing bytes");
  if (!r.ok()) return std::unexpected(r.error());
  return c;
}

namespace {

// Length of the field type starting at d[pos], or 0 if there is none.
std::size_t field_type_length(std::string_view d, std::size_t pos) {
  std::size_t start = pos;
  std::size_t dims = 0;
  while (pos < d.size() && d[pos] == '[') {
    ++pos;
    if (++dims > 255) return 0;
  }
  if (pos >= d.size()) return 0;
  switch (d[pos]) {
    case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z':
      return pos + 1 - start;
    case 'L': {
      std::size_t end = d.find(';', pos);
      if (end == std::string_view::npos || end == pos + 1) return 0;
      return end + 1 - start;
    }
    default:
      return 0;
  }
}

int slots_of(std::string_view type) { return (type == "J" || type == "D") ? 2 : 1; }

}  // namespace

std::optional<int> field_slots(std::string_view d) {
  std::size_t n = field_type_length(d, 0);
  if (n == 0 || n != d.size()) return std::nullopt;
  return slots_of(d);
}

std::optional<DescriptorSlots> method_slots(std::string_view d) {
  if (d.empty() || d[0] != '(') return std::nullopt;
  DescriptorSlots out;
  std::size_t pos = 1;
  while (pos < d.size() && d[pos] != ')') {
    std::size_t n = field_type_length(d, pos);
    if (n == 0) return std::nullopt;
    out.arguments += slots_of(d.substr(pos, n));
    pos += n;
  }
  if (pos >= d.size()) return std::nullopt;
  ++pos;
  if (pos + 1 == d.size() && d[pos] == 'V') return out;
  auto result = field_slots(d.substr(pos));
  if (!result) return std::nullopt;
  out.result = *result;
  return out;
}

std::string java_type_name(std::string_view d) {
  std::size_t dims = 0;
  while (dims < d.size() && d[dims] == '[') ++dims;
  std::string_view rest = d.substr(dims);
  std::string base;
  if (rest.size() >= 2 && rest.front() == 'L' && rest.back() == ';') {
    base = std::string(rest.substr(1, rest.size() - 2));
    std::replace(base.begin(), base.end(), '/', '.');
  } else if (rest.size() == 1) {
    switch (rest[0]) {
      case 'Z': base = "boolean"; break;
      case 'B': base = "byte"; break;
      case 'C': base = "char"; break;
      case 'S': base = "short"; break;
      case 'I': base = "int"; break;
      case 'J': base = "long"; break;
      case 'F': base = "float"; break;
      case 'D': base = "double"; break;
      case 'V': base = "void"; break;
      default: base = std::string(rest);
    }
  } else {
    base = std::string(rest);
  }
  for (std::size_t i = 0; i < dims; ++i) base += "[]";
  return base;
}

std::optional<std::string> descriptor_class(std::string_view d) {
  if (!field_slots(d)) return std::nullopt;
  if (d[0] == '[') return std::string(d);
  if (d[0] == 'L') return std::string(d.substr(1, d.size() - 2));
  return std::nullopt;
}

}  // namespace flakescan::classfile
