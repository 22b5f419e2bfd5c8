// The newc cpio archive the kernel unpacks as initramfs, written with
// libarchive.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

struct archive;

namespace elfmeta::oracle {

class CpioWriter {
 public:
  CpioWriter();
  ~CpioWriter();
  void directory(const std::string& path);
  void file(const std::string& path, std::span<const uint8_t> data, unsigned mode = 0644);
  // Closes the archive and returns it.
  std::vector<uint8_t> finish();

 private:
  void entry(const std::string& path, std::span<const uint8_t> data, unsigned mode);
  static long append(archive*, void* self, const void* buffer, size_t size);
  archive* archive_;
  std::vector<uint8_t> out_;
};

}  // namespace elfmeta::oracle
