#pragma once
// A reader (and a small writer) for tar archives: the body of POST /v1/ui-traces.
// Pure functions over bytes; no I/O, no logging. The reader returns views into the input.
//
// An archive is a sequence of 512-byte blocks: per member one header block, then the data
// padded to a block boundary; two zero blocks end it (one is accepted).
//
//   offset  size  field (ustar / GNU)
//   ------  ----  ----------------------------------------------
//        0   100  name (NUL-terminated unless full)
//      100     8  mode (octal)        108  8  uid    116  8  gid
//      124    12  size (octal, or base-256 when the top bit of byte 0 is set)
//      136    12  mtime (octal)
//      148     8  checksum: octal sum of all 512 bytes, this field read as spaces
//      156     1  typeflag: '0'/NUL file, '5' directory, 'L' GNU long name of the next
//                 member, 'x' pax header of the next member (path=, size=), 'g' global pax
//      157   100  linkname
//      257     6  magic "ustar\0" (POSIX) or "ustar " (GNU)
//      263     2  version
//      265    32  uname               297 32  gname
//      329     8  devmajor            337  8  devminor
//      345   155  prefix: the path is prefix + "/" + name when set
//      500    12  (padding)
//   [data, size bytes, zero-padded to a multiple of 512]
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.hpp"

namespace flakescan::tarpit {

struct TarLimits {
  std::size_t max_members = 200'000;
  std::uint64_t max_member_bytes = 64ull << 20;
};

struct TarMember {
  std::string path;       // "./" prefixes removed
  std::string_view data;  // a view into the archive bytes
};

// Regular files only (directories, links and devices are skipped).
// Errc::need_more: the archive ends inside a member or before its end marker.
// Errc::malformed: a bad checksum, size or pax record. Errc::too_large: over a limit.
util::Result<std::vector<TarMember>> read_tar(std::string_view bytes, const TarLimits& limits = {});

// POSIX ustar archive of regular files (mode 0644, mtime 0), with pax headers for paths that
// do not fit; read_tar(write_tar(files)) gives the files back.
std::string write_tar(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace flakescan::tarpit
