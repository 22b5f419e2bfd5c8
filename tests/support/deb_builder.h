// Debian packages for tests: an ar archive with debian-binary, control.tar.gz
// and a data archive (xz-compressed tar) holding `files`, written with
// libarchive as dpkg-deb lays them out.
#pragma once

#include <archive.h>
#include <archive_entry.h>

#include <string>
#include <utility>
#include <vector>

namespace elfmeta::testing {

using DebFiles = std::vector<std::pair<std::string, std::string>>;  // path in the archive, contents

// An archive of `files` in a libarchive format, optionally compressed.
inline std::string write_archive(const DebFiles& files, int (*format)(archive*), int (*filter)(archive*) = nullptr) {
  size_t capacity = 1 << 16;
  for (const auto& [name, data] : files) capacity += name.size() + data.size() + 1024;
  archive* a = archive_write_new();
  format(a);
  if (filter) filter(a);
  std::string out(capacity, '\0');
  size_t used = 0;
  archive_write_open_memory(a, out.data(), out.size(), &used);
  for (const auto& [name, data] : files) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
    archive_write_header(a, e);
    archive_write_data(a, data.data(), data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  out.resize(used);
  return out;
}

// `control`: the control file (its Package and Version fields name the package).
inline std::string write_deb(const DebFiles& data_files, const std::string& data_member = "data.tar.xz",
                             const std::string& control_file = "Package: x\n") {
  const std::string data = write_archive(data_files, archive_write_set_format_pax_restricted, archive_write_add_filter_xz);
  const std::string control = write_archive({{"./control", control_file}}, archive_write_set_format_pax_restricted,
                                            archive_write_add_filter_gzip);
  return write_archive({{"debian-binary", "2.0\n"}, {"control.tar.gz", control}, {data_member, data}},
                       archive_write_set_format_ar_svr4);
}

}  // namespace elfmeta::testing
