#include "classfile/classpath.hpp"

#include <fstream>
#include <system_error>

namespace flakescan::classfile {

util::Result<Bytes> read_class_bytes(std::span<const std::filesystem::path> classpath, std::string_view class_name,
                                     const Limits& limits) {
  std::string relative(class_name);
  for (char& ch : relative)
    if (ch == '.') ch = '/';
  if (relative.empty() || relative.front() == '/' || relative.back() == '/' || relative.find("//") != std::string::npos)
    return util::fail(util::Errc::invalid_argument, "bad class name \"" + std::string(class_name) + "\"");
  relative += ".class";
  for (const std::filesystem::path& entry : classpath) {
    std::error_code ec;
    if (!std::filesystem::is_directory(entry, ec)) continue;  // jars: not yet (see the header)
    std::filesystem::path file = entry / relative;
    if (!std::filesystem::is_regular_file(file, ec)) continue;
    auto size = std::filesystem::file_size(file, ec);
    if (ec) return util::fail(util::Errc::io, file.string() + ": " + ec.message());
    if (size > limits.max_class_bytes)
      return util::fail(util::Errc::too_large, file.string() + ": " + std::to_string(size) + " bytes");
    std::ifstream in(file, std::ios::binary);
    Bytes bytes(size);
    if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size)))
      return util::fail(util::Errc::io, file.string() + ": read failed");
    return bytes;
  }
  return util::fail(util::Errc::not_found, "class " + std::string(class_name) + " not in the classpath's directories");
}

}  // namespace flakescan::classfile
