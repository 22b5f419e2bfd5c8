// The vectorised name scanners classify every byte as the kernel's ctype
// table does, at every position and near the end of the buffer.
#include "btf/names.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace elfmeta::btf {
namespace {

size_t scalar_run(const uint8_t* p, const std::array<bool, 256>& table) {
  size_t i = 0;
  while (table[p[i]]) ++i;
  return i;
}

TEST(NameScanners, AgreeWithTheTableForEveryByteAndPosition) {
  for (int b = 0; b < 256; ++b) {
    for (size_t prefix = 0; prefix < 40; ++prefix) {
      for (size_t slack : {0, 1, 7, 16, 40}) {
        std::vector<uint8_t> buf(prefix, 'a');
        buf.push_back(static_cast<uint8_t>(b));
        buf.insert(buf.end(), slack, 'z');
        buf.push_back(0);
        const uint8_t* end = buf.data() + buf.size();
        ASSERT_EQ(identifier_run(buf.data(), end), scalar_run(buf.data(), detail::kIdentifierRest))
            << "byte " << b << " after " << prefix;
        ASSERT_EQ(printable_run(buf.data(), end), scalar_run(buf.data(), detail::kPrintable))
            << "byte " << b << " after " << prefix;
      }
    }
  }
}

TEST(NameScanners, LengthLimit) {
  const std::string ok(512, 'a'), long_name(513, 'a');
  EXPECT_TRUE(valid_identifier(ok.c_str(), ok.c_str() + ok.size() + 1));
  EXPECT_FALSE(valid_identifier(long_name.c_str(), long_name.c_str() + long_name.size() + 1));
  EXPECT_TRUE(valid_section_name(ok.c_str(), ok.c_str() + ok.size() + 1));
  EXPECT_FALSE(valid_section_name(long_name.c_str(), long_name.c_str() + long_name.size() + 1));
  auto identifier = [](const std::string& s) { return valid_identifier(s.c_str(), s.c_str() + s.size() + 1); };
  auto section = [](const std::string& s) { return valid_section_name(s.c_str(), s.c_str() + s.size() + 1); };
  EXPECT_FALSE(identifier(""));
  EXPECT_FALSE(section(""));
  EXPECT_TRUE(identifier(".data"));
  EXPECT_FALSE(identifier("9a"));
  EXPECT_TRUE(section(".data foo"));
  EXPECT_EQ(identifier_problem("a$b"), "has byte '$' at position 1");
  EXPECT_EQ(identifier_problem(long_name.c_str()), "is longer than 512 bytes");
  EXPECT_EQ(section_name_problem(""), "is empty");
}

// The bitmap must answer as identifier_length() at every offset: sections of
// names, bad bytes, digits, and runs around the 512-byte limit across blocks;
// built with each classifier the processor has.
TEST(IdentifierMap, AgreesWithIdentifierLengthAtEveryOffset) {
  std::mt19937 rng(7);
  const std::string alphabet = std::string("ab_.9Z") + '\0' + "$ \xc0\xd7\xff-";
  for (int round = 0; round < 400; ++round) {
    std::vector<uint8_t> section;
    const size_t size = 1 + rng() % (round < 200 ? 300 : 2000);
    const bool any_byte = round % 4 == 3;  // every byte value, for the nibble tables
    while (section.size() < size) {
      const uint32_t pick = rng() % 10;
      if (pick == 0) {  // a long name: around the limit, or across a block or two
        const size_t n = round % 2 ? 500 + rng() % 30 : 40 + rng() % 100;
        section.insert(section.end(), n, 'x');
      } else if (any_byte && pick < 5) {
        section.push_back(static_cast<uint8_t>(rng()));
      } else {
        section.push_back(static_cast<uint8_t>(alphabet[rng() % alphabet.size()]));
      }
    }
    section.push_back(0);
    const char* begin = reinterpret_cast<const char*>(section.data());
    for (const ByteClassifier how : {ByteClassifier::kPortable, ByteClassifier::kAvx2, ByteClassifier::kAvx512}) {
      if (!byte_classifier_supported(how)) continue;
      const IdentifierMap map(section.data(), static_cast<uint32_t>(section.size()), how);
      for (uint32_t off = 0; off < section.size(); ++off) {
        const bool expected = identifier_length(begin + off, begin + section.size()) != kNotIdentifier;
        ASSERT_EQ(map.starts_identifier(off), expected)
            << "classifier " << int(how) << ", round " << round << ", offset " << off << " of " << section.size()
            << ", string of " << std::strlen(begin + off) << " bytes";
      }
      EXPECT_FALSE(map.starts_identifier(static_cast<uint32_t>(section.size())));
    }
  }
}

}  // namespace
}  // namespace elfmeta::btf
