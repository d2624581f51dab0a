#pragma once
// What JdwpVm reads from class-file data: access flags and method descriptors. Internal to
// the flakescan_jdwp_vm target.
#include <cstdint>
#include <string>
#include <vector>

#include "jdwp/wire.hpp"

namespace flakescan::jdwp {

constexpr std::int32_t acc_static = 0x0008;
constexpr std::int32_t acc_final = 0x0010;

// Tags of a method's parameters, from its JNI descriptor "(ILjava/lang/String;[J)V".
inline std::vector<Tag> parameter_tags(const std::string& signature) {
  std::vector<Tag> tags;
  std::size_t i = 1;
  while (i < signature.size() && signature[i] != ')') {
    const std::size_t start = i;
    while (signature[i] == '[') ++i;
    if (signature[i] == 'L') i = signature.find(';', i);
    if (i == std::string::npos) break;
    ++i;
    tags.push_back(tag_for_signature(signature.substr(start, i - start)));
  }
  return tags;
}

}  // namespace flakescan::jdwp
