#pragma once
// Candidate reset calls for a polluted static field (ODRepair's reset methods,
// docs/repair.md) and their Java source form. Pure: class files and literals in, calls out.
//
// Where candidates come from, best first:
//   1. methods that write the field (putstatic) or call a mutator on the value read from it
//      (classfile::find_reset_candidates): static ones with their arguments, instance ones
//      of the value's own class on the value itself (`Session.get().reset()`), and instance
//      ones of another class on what that class's static getter of its own type returns
//      (`SentenceFactory.getInstance().reset()` for the static map it resets). Methods that
//      only mutate some value of the field's type count when their class is the project's
//      or the field's owner (a JDK class that fills some other map is no reset);
//   2. the value's own mutators (is_mutator_name, or methods of a project class that write
//      one of its fields): `NAMES.clear()`, `props.remove("k")`, `session.logout()`.
// Inside each group: names that undo (reset*, clear, remove*, unregister*, logout-like
// writers) before setters, setters before adders; fewer arguments first. Arguments come
// from the literals mined from the tests and the field's owner, null, enum constants, and
// the field's own value from before the polluter ran (`original`), and the JVM's current
// default of the parameter's type (`jdk_default`: `TimeZone.getDefault()` for a TimeZone).
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "classfile/classfile.hpp"
#include "classfile/reset_candidates.hpp"

namespace flakescan::repair {

struct Arg {
  enum class Kind { null, int_, long_, boolean, string, enum_constant, original, jdk_default };
  Kind kind = Kind::null;
  std::int64_t integer = 0;
  std::string text;   // string: the text; enum_constant: the constant's name
  std::string type;   // enum_constant: the enum's binary name; null, jdk_default: the parameter's descriptor
  friend bool operator==(const Arg&, const Arg&) = default;
};

struct Call {
  bool on_value = false;  // receiver: the polluted field's value at the call
  std::string owner;      // binary name of the class that declares the method
  std::string method;
  std::string descriptor;
  std::vector<Arg> args;
  std::string why;        // "writes the field", "mutator of the value's class", ...
  // Not empty: an instance method of `owner` called on what the owner's static no-argument
  // getter of that name returns (a singleton's `getInstance()`).
  std::string instance_getter;
  friend bool operator==(const Call&, const Call&) = default;
};

struct PollutedField {
  std::string owner;       // binary name: "example.app.Registry", "java.util.Locale"
  std::string name;
  std::string descriptor;  // "Ljava/util/List;"
  std::string value_class; // runtime class of the value in the failing state; empty: null
};

// The JDK's static method that returns the JVM's current default of a parameter type:
// TimeZone, Locale, ZoneId, Charset, Clock.
struct JdkDefault {
  std::string owner;       // binary name: "java.util.TimeZone"
  std::string method;      // "getDefault"
  std::string descriptor;  // "()Ljava/util/TimeZone;"
};
// nullopt when the type (a field descriptor, "Ljava/util/TimeZone;") has no such default.
std::optional<JdkDefault> jdk_default_for(const std::string& type_descriptor);

// Class files by internal name ("java/util/Locale$Category").
using ClassFiles = std::map<std::string, classfile::ClassFile>;

// The classes a search needs beyond the project's: the field's owner, the value's class and
// their superclasses (to be fetched until known), given what is known so far.
std::vector<std::string> missing_classes(const PollutedField& field, const ClassFiles& known);
// Enum types among the parameters of `calls`' methods that are not known yet.
std::vector<std::string> missing_enum_candidates(const std::vector<classfile::ResetCandidate>& methods, const ClassFiles& known);

// Error: malformed bytecode in some class.
util::Result<std::vector<classfile::ResetCandidate>> reset_methods(const PollutedField& field, const ClassFiles& classes);
std::vector<Call> candidate_calls(const PollutedField& field, const std::vector<classfile::ResetCandidate>& resets,
                                  const ClassFiles& classes, const classfile::Literals& literals, std::size_t max_calls);

// ---- Java source ------------------------------------------------------------------------
// "pkg.Outer$Inner" -> "pkg.Outer.Inner".
std::string source_name(const std::string& binary_name);
// How test code in package `from_package` reads the field: `Owner.FIELD` when accessible,
// else a static no-argument getter of the owner that returns it (`System.getProperties()`).
std::optional<std::string> field_expression(const PollutedField& field, const ClassFiles& classes, const std::string& from_package);
// The statement; nullopt when an argument has no source form (`original` without one) or the
// receiver cannot be named. `original` is the source form of the field's earlier value.
std::optional<std::string> java_statement(const Call& call, const std::optional<std::string>& receiver,
                                          const std::optional<std::string>& original);

// The name of `class_name`'s static no-argument getter of its own type (accessible from
// `from_package`), the receiver of its instance reset methods; nullopt when it has none.
std::optional<std::string> instance_getter(const std::string& class_name, const ClassFiles& classes,
                                           const std::string& from_package = {});

// Text for evidence and logs: "java.util.List.clear()", "Registry.register(\"a\")".
std::string describe(const Call& call);

}  // namespace flakescan::repair
