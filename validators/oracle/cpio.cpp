#include "oracle/cpio.h"

#include <archive.h>
#include <archive_entry.h>

#include <stdexcept>

namespace elfmeta::oracle {

long CpioWriter::append(archive*, void* self, const void* buffer, size_t size) {
  auto& out = static_cast<CpioWriter*>(self)->out_;
  const auto* bytes = static_cast<const uint8_t*>(buffer);
  out.insert(out.end(), bytes, bytes + size);
  return static_cast<long>(size);
}

CpioWriter::CpioWriter() : archive_(archive_write_new()) {
  archive_write_set_format_cpio_newc(archive_);
  archive_write_set_bytes_per_block(archive_, 0);  // no padding to 10 KiB blocks
  if (archive_write_open(archive_, this, nullptr, &CpioWriter::append, nullptr) != ARCHIVE_OK)
    throw std::runtime_error("cpio: cannot open the archive writer");
}

CpioWriter::~CpioWriter() { archive_write_free(archive_); }

void CpioWriter::entry(const std::string& path, std::span<const uint8_t> data, unsigned mode) {
  archive_entry* e = archive_entry_new();
  archive_entry_set_pathname(e, path.c_str());
  archive_entry_set_mode(e, mode);
  archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
  archive_entry_set_nlink(e, 1);
  if (archive_write_header(archive_, e) != ARCHIVE_OK ||
      (!data.empty() && archive_write_data(archive_, data.data(), data.size()) != static_cast<la_ssize_t>(data.size()))) {
    archive_entry_free(e);
    throw std::runtime_error("cpio: " + path + ": " + archive_error_string(archive_));
  }
  archive_entry_free(e);
}

void CpioWriter::directory(const std::string& path) { entry(path, {}, AE_IFDIR | 0755); }
void CpioWriter::file(const std::string& path, std::span<const uint8_t> data, unsigned mode) {
  entry(path, data, AE_IFREG | mode);
}

std::vector<uint8_t> CpioWriter::finish() {
  archive_write_close(archive_);
  return std::move(out_);
}

}  // namespace elfmeta::oracle
