#pragma once
// What ODRepair needs from class files once the polluted static field is known
// (docs/repair.md): the methods that may reset that field, and the literals to
// call them with. Pure: parsed classes in, lists out.
//
// A method is a reset candidate when its bytecode
//   - writes the field (putstatic owner.name:descriptor), or
//   - calls a mutator (is_mutator_name) on a receiver read from the field (getstatic, also
//     through a reference local), or on a receiver of the field's type: the call's owner is
//     the field's declared class type, or the receiver was read from another field of the
//     same descriptor; or
//   - calls a method that is a candidate by the first two rules (directly or through up to
//     two more such calls): a public `shutdown(name)` whose private `stop(name)` removes the
//     entry from the field's map.
// <clinit> is left out (no one can call it); constructors stay (a singleton's private
// constructor may assign the instance). Candidates come in class, then method order, callers
// after the methods they call.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "classfile/bytecode.hpp"
#include "classfile/classfile.hpp"

namespace flakescan::classfile {

struct StaticField {
  std::string owner;  // internal name: "com/example/Registry"
  std::string name;
  std::string descriptor;  // "Ljava/util/Map;"
};

enum class ResetKind {
  writes_field,        // putstatic of the field
  mutates_field,       // a mutator on the value read from the field
  mutates_field_type,  // a mutator on some value of the field's type
  calls_reset,         // a call of another candidate that writes or mutates the field itself
};

struct ResetSite {
  ResetKind kind = ResetKind::writes_field;
  std::uint32_t offset = 0;  // bytecode offset of the putstatic or the call
  MemberRef call;            // the mutator or candidate called; empty for writes_field
};

struct ResetCandidate {
  std::string class_name;
  std::string method_name;
  std::string method_descriptor;
  std::uint16_t access_flags = 0;
  std::vector<ResetSite> sites;  // in bytecode order

  bool writes_field() const;
};

// clear, merge; put*, add*, remove*, set*, reset*, register*, unregister*, compute*,
// replace*, retain* where the prefix is the whole name or is followed by an upper-case
// letter or a digit (so `setUp` and `putAll` match, `address` and `settings` do not).
bool is_mutator_name(std::string_view method_name);

// Errors: malformed (bytecode of some method; the message names class and method).
util::Result<std::vector<ResetCandidate>> find_reset_candidates(std::span<const ClassFile> classes,
                                                                 const StaticField& field);

// Literals to build call arguments from: String, Integer and Long constants of the pool
// (ConstantValue fields included) and the ints of bipush, sipush and iconst_*. Each list
// keeps first-seen order without duplicates.
struct Literals {
  std::vector<std::string> strings;
  std::vector<std::int32_t> ints;
  std::vector<std::int64_t> longs;
};
// Errors: malformed (bytecode of some method).
util::Result<Literals> collect_literals(const ClassFile& cls);
// The literals that the methods named `method_name` (and the lambdas javac made of their
// bodies, `lambda$name$0`) load, in bytecode order: a test method's own arguments come before
// its class's. Errors: malformed.
util::Result<Literals> collect_method_literals(const ClassFile& cls, std::string_view method_name);
// Appends what `from` has and `into` lacks (victim's class, then the field owner's).
void merge(Literals& into, const Literals& from);

}  // namespace flakescan::classfile
