#include "backend/local_jvm/run_log.hpp"

#include <fstream>
#include <string>

namespace flakescan::backend {

namespace fs = std::filesystem;

util::Result<bool> trim_run_log(const fs::path& path, std::uintmax_t head, std::uintmax_t tail) {
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  if (ec || size <= head + tail) return false;
  std::ifstream in(path, std::ios::binary);
  std::string first(head, '\0');
  std::string last(tail, '\0');
  in.read(first.data(), std::streamsize(head));
  in.seekg(std::streamoff(size - tail));
  in.read(last.data(), std::streamsize(tail));
  if (!in) return util::fail(util::Errc::io, "cannot read " + path.string());
  fs::path cut = path.string() + ".cut";
  std::ofstream out(cut, std::ios::binary | std::ios::trunc);
  out << first << "\n... flakescan: " << (size - head - tail) << " bytes of output cut here ...\n" << last;
  out.close();
  if (!out) return util::fail(util::Errc::io, "cannot write " + cut.string());
  fs::rename(cut, path, ec);
  if (ec) return util::fail(util::Errc::io, "cannot replace " + path.string() + ": " + ec.message());
  return true;
}

}  // namespace flakescan::backend
