#include "input/debian_package.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace elfmeta::input {
namespace {

using ArchivePtr = std::unique_ptr<archive, decltype(&archive_read_free)>;

// The data member is read straight out of the outer ar archive, block by
// block, so a package is never held in memory whole.
la_ssize_t read_member_block(archive*, void* outer, const void** buffer) {
  auto* ar = static_cast<archive*>(outer);
  size_t size = 0;
  la_int64_t offset = 0;
  const int rc = archive_read_data_block(ar, buffer, &size, &offset);
  if (rc == ARCHIVE_EOF) return 0;
  if (rc != ARCHIVE_OK) return -1;
  return static_cast<la_ssize_t>(size);
}

bool read_data_archive(archive* outer, const std::function<bool(std::string_view)>& want,
                       std::vector<PackageFile>& files, std::string& error) {
  ArchivePtr tar(archive_read_new(), archive_read_free);
  archive_read_support_filter_all(tar.get());
  archive_read_support_format_tar(tar.get());
  if (archive_read_open(tar.get(), outer, nullptr, read_member_block, nullptr) != ARCHIVE_OK) {
    error = archive_error_string(tar.get()) ? archive_error_string(tar.get()) : "unreadable data archive";
    return false;
  }
  archive_entry* entry = nullptr;
  int rc;
  while ((rc = archive_read_next_header(tar.get(), &entry)) == ARCHIVE_OK) {
    if (archive_entry_filetype(entry) != AE_IFREG) continue;
    std::string_view name = archive_entry_pathname(entry);
    if (name.starts_with("./")) name.remove_prefix(2);
    if (!want(name)) continue;
    PackageFile file{std::string(name), {}};
    // The size is the archive's claim: reserve what it says, within reason.
    if (archive_entry_size_is_set(entry) && archive_entry_size(entry) > 0)
      file.bytes.reserve(static_cast<size_t>(std::min<la_int64_t>(archive_entry_size(entry), la_int64_t(1) << 28)));
    char buffer[1 << 16];
    for (la_ssize_t n; (n = archive_read_data(tar.get(), buffer, sizeof buffer)) != 0;) {
      if (n < 0) {
        error = std::string(name) + ": " + archive_error_string(tar.get());
        return false;
      }
      file.bytes.insert(file.bytes.end(), buffer, buffer + n);
    }
    files.push_back(std::move(file));
  }
  if (rc != ARCHIVE_EOF) {
    error = archive_error_string(tar.get()) ? archive_error_string(tar.get()) : "truncated data archive";
    return false;
  }
  return true;
}

}  // namespace

bool is_debian_package(std::span<const uint8_t> bytes) {
  static constexpr char kMagic[] = "!<arch>\ndebian-binary";
  return bytes.size() >= sizeof kMagic - 1 && std::memcmp(bytes.data(), kMagic, sizeof kMagic - 1) == 0;
}

std::optional<std::vector<PackageFile>> read_debian_package(const std::string& path,
                                                            const std::function<bool(std::string_view)>& want,
                                                            std::string& error) {
  ArchivePtr ar(archive_read_new(), archive_read_free);
  archive_read_support_format_ar(ar.get());
  if (archive_read_open_filename(ar.get(), path.c_str(), 1 << 16) != ARCHIVE_OK) {
    error = path + ": " + (archive_error_string(ar.get()) ? archive_error_string(ar.get()) : "not an ar archive");
    return std::nullopt;
  }
  archive_entry* entry = nullptr;
  while (archive_read_next_header(ar.get(), &entry) == ARCHIVE_OK) {
    if (!std::string_view(archive_entry_pathname(entry)).starts_with("data.tar")) continue;
    std::vector<PackageFile> files;
    if (!read_data_archive(ar.get(), want, files, error)) {
      error = path + ": " + error;
      return std::nullopt;
    }
    return files;
  }
  error = path + ": not a Debian package (no data.tar member)";
  return std::nullopt;
}

}  // namespace elfmeta::input
