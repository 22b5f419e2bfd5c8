// What the SFrame tests of today's producers share: checking a file with
// elfmeta, the producer defects the ABI table records (the only errors real
// output may have), and libsframe 3 as a reference reader (a driver of ours,
// tests/sframe/sid/libsframe3_driver.c, compiled and run in the sid root:
// sid's libsframe needs sid's glibc), compared with elfmeta's reading.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "input/artifact.h"
#include "sframe/fre_state.h"
#include "sframe/lookup.h"
#include "sframe/sframe_abi.h"
#include "sframe/sframe_table.h"
#include "sframe/verifier.h"
#include "tests/support/toolchain_root.h"

namespace elfmeta::testing {

namespace fs = std::filesystem;

struct Checked {
  sframe::SframeCheck check;
  std::map<std::string, size_t> rules;  // every finding's rule
  std::vector<Diagnostic> errors;       // error findings
  std::string listing;
  std::string cfi_note;                 // "SFrame against DWARF CFI: N points, ..."
};

// The findings of a known producer defect carry the ABI table's text
// (sframe_abi.h): "a known producer defect: ...".
inline bool known_producer_defect(const Diagnostic& d) {
  return d.message.find("known producer defect") != std::string::npos;
}

inline Checked check_file(const fs::path& p, uint32_t consumer = kNoConsumer) {
  Checked r;
  auto opened = input::open_input(p.string());
  EXPECT_TRUE(opened.artifact) << p << ": " << opened.error;
  if (!opened.artifact) return r;
  DiagnosticList list;
  r.check = sframe::check_sframe(*opened.artifact, sframe::SframeOptions{consumer}, list);
  for (const auto& d : list.items()) {
    if (d.rule) ++r.rules[std::string(d.rule->id)];
    if (d.severity == Severity::Error) r.errors.push_back(d);
    if (d.message.starts_with("SFrame against DWARF CFI")) r.cfi_note = d.message;
    r.listing += d.message + (d.rule ? " [" + std::string(d.rule->id) + "]\n" : "\n");
  }
  return r;
}

// "N points, M equal" of the CFI note.
inline std::pair<size_t, size_t> cfi_points(const std::string& note) {
  size_t points = 0, equal = 0;
  std::sscanf(note.c_str(), "SFrame against DWARF CFI: %zu points, %zu equal", &points, &equal);
  return {points, equal};
}

// ------------------------------------------------------------ libsframe 3

// A section for the driver: its bytes in a file and the section-relative
// PCs to look up.
struct DriverInput {
  std::string name;
  fs::path file;
  std::vector<int64_t> pcs;
};

// The libsframe 3 driver, compiled once per process in the root.
class Libsframe3 {
 public:
  // Built once per process, in a folder of its own that lives as long.
  static const Libsframe3& get(const fs::path& include) {
    static Libsframe3 d(fs::temp_directory_path() / ("elfmeta-libsframe3-driver-" + std::to_string(::getpid())), include);
    return d;
  }
  ~Libsframe3() { fs::remove_all(dir_); }
  Libsframe3(const Libsframe3&) = delete;
  Libsframe3& operator=(const Libsframe3&) = delete;
  bool ok() const { return !binary_.empty(); }
  const std::string& why() const { return why_; }
  const std::string& version() const { return version_; }

  // The driver's output per section name (lines after "section FILE").
  std::map<std::string, std::vector<std::string>> run(const std::vector<DriverInput>& in, const fs::path& dir) const {
    std::map<std::string, std::vector<std::string>> out;
    const fs::path list = dir / "driver.list";
    std::map<std::string, std::string> name_of;
    {
      std::ofstream l(list);
      for (const auto& s : in) {
        l << s.file.string();
        for (int64_t pc : s.pcs) l << " " << pc;
        l << "\n";
        name_of[s.file.string()] = s.name;
      }
    }
    const CommandResult r = SidData::run(shell_quote(binary_.string()) + " " + shell_quote(list.string()), dir, {binary_.parent_path()});
    EXPECT_EQ(r.status, 0) << r.output.substr(0, 2000);
    std::istringstream lines(r.output);
    std::string current;
    for (std::string line; std::getline(lines, line);) {
      if (line.starts_with("section ")) {
        current = name_of[line.substr(8)];
        out[current];
      } else if (!current.empty()) {
        out[current].push_back(line);
      }
    }
    return out;
  }

 private:
  // `include`: the binutils source's include/, for the ansidecl.h that sid's
  // libsframe-dev (2.47.50.20261021-1) includes from sframe.h and does not
  // ship (binutils-dev has it); searched after the system's headers.
  Libsframe3(const fs::path& dir, const fs::path& include) : dir_(dir) {
    fs::create_directories(dir);
    const fs::path src = source_dir() / "tests" / "sframe" / "sid" / "libsframe3_driver.c";
    const CommandResult c = SidData::run("gcc -O1 -Wall -Werror -idirafter " + shell_quote(include.string()) +
                                             " -o libsframe3-driver " + shell_quote(src.string()) +
                                             " -lsframe && dpkg-query -W -f='${Version}' libsframe3",
                                         dir, {src.parent_path(), include});
    if (c.status != 0) {
      why_ = "compiling tests/sframe/sid/libsframe3_driver.c in the sid root failed: " + c.output;
      return;
    }
    binary_ = dir / "libsframe3-driver";
    version_ = c.output;
  }
  fs::path dir_, binary_;
  std::string why_, version_;
};

// What elfmeta reads, in the driver's lines, and how the two compare.
struct Comparison {
  size_t sections = 0, fdes = 0, fres = 0, finds = 0;
  size_t refused_by_libsframe = 0, refused_by_both = 0;
  size_t flex_ra_not_compared = 0;  // libsframe's FLEX RA getter reads word 3 whatever word 2 is
  size_t finds_not_compared = 0;    // lookups in sections without FDE_FUNC_START_PCREL
  size_t crashes = 0;
  std::vector<std::string> differences;
};

// Word w of an FRE as the unsigned value of its size (the driver's udata).
inline uint32_t udata(const sframe::Fre& f, size_t w) {
  const uint32_t size = sframe::word_size(f.size_code());
  return size >= 4 ? uint32_t(f.words[w]) : uint32_t(f.words[w]) & ((1u << (8 * size)) - 1);
}

// Compares libsframe's lines for one section with elfmeta's table. The
// values compared are libsframe's API: FDE fields, FRE start/info/words, the
// CFA offset (decoded: s390x), the FP and RA offsets of default FDEs (the
// header's fixed offsets, s390x's RA padding), the FP offset of FLEX FDEs,
// and sframe_find_fre at the probe PCs.
// `lookups`: the section is one elfmeta finds no error in (sorted, no
// overlap, FRE starts in order), where a lookup has one answer.
inline void compare_section(const std::string& name, const sframe::SframeTable& t, const std::vector<std::string>& theirs,
                            const std::vector<int64_t>& pcs, bool lookups, Comparison& c) {
  ++c.sections;
  auto differ = [&](const std::string& what) {
    if (c.differences.size() < 40) c.differences.push_back(name + ": " + what);
  };
  if (theirs.empty()) {
    differ("no output from the driver");
    return;
  }
  if (theirs[0].starts_with("refused")) {
    ++c.refused_by_libsframe;
    return;
  }
  const sframe::Header& h = t.header;
  const sframe::AbiFacts* abi = sframe::abi_facts(h.abi);
  std::map<std::string, std::string> lines;  // "fde 3" -> rest, "fre 3 1" -> rest, "find 123" -> rest
  for (const auto& l : theirs) {
    std::istringstream in(l);
    std::string kind, a, b;
    in >> kind;
    if (kind == "header") {
      lines["header"] = l;
    } else if (kind == "fre") {
      in >> a >> b;
      lines["fre " + a + " " + b] = l;
    } else {
      in >> a;
      lines[kind + " " + a] = l;
    }
  }
  std::ostringstream head;
  head << "header " << int(h.version) << " " << int(h.flags) << " " << int(h.abi) << " " << int(h.fixed_fp) << " "
       << int(h.fixed_ra) << " " << t.fdes.size();
  if (lines["header"] != head.str()) differ("libsframe '" + lines["header"] + "', elfmeta '" + head.str() + "'");
  for (size_t i = 0; i < t.fdes.size(); ++i) {
    const sframe::Fde& d = t.fdes[i];
    if (!t.blocks[i].complete) continue;  // elfmeta reports the block; libsframe reads what it finds
    ++c.fdes;
    std::ostringstream fde;
    fde << "fde " << i << " " << (h.version >= 3 ? d.start : int64_t(int32_t(d.start))) << " " << d.size << " "
        << d.num_fres << " " << int(d.info) << " " << int(h.version >= 3 ? d.info2 : 0) << " " << int(d.rep_size);
    if (lines["fde " + std::to_string(i)] != fde.str())
      differ("libsframe '" + lines["fde " + std::to_string(i)] + "', elfmeta '" + fde.str() + "'");
    const bool flex = h.version >= 3 && (d.info2 & 0x1f) == sframe::kFlex;
    for (sframe::FreCursor cur(t, i); !cur.done(); cur.next()) {
      const sframe::Fre& f = *cur;
      const std::string key = "fre " + std::to_string(i) + " " + std::to_string(cur.index());
      std::istringstream in(lines[key]);
      std::string kind, si, sk;
      uint64_t start = 0, info = 0, n = 0;
      in >> kind >> si >> sk >> start >> info >> n;
      if (kind != "fre" || start != f.start || info != f.info || n != f.count()) {
        differ("FDE " + std::to_string(i) + " FRE " + std::to_string(cur.index()) + ": libsframe '" + lines[key] +
               "', elfmeta start " + std::to_string(f.start) + " info " + std::to_string(f.info));
        continue;
      }
      ++c.fres;
      if (f.count() > 6) continue;  // libsframe's getters refuse an FRE of more words (SFRAME-FRE-003 says so)
      for (size_t w = 0; w < n; ++w) {
        std::string word;
        in >> word;
        if (word != std::to_string(udata(f, w)))
          differ(key + ": word " + std::to_string(w) + " libsframe " + word + ", elfmeta " + std::to_string(udata(f, w)));
      }
      std::map<std::string, std::string> v;
      for (std::string k, val; in >> k >> val;) v[k] = val;
      const auto s = sframe::state_of(h, flex, f);
      if (!s || !abi) continue;
      const auto expect = [&](const std::string& what, std::optional<int64_t> ours) {
        const std::string want = ours ? std::to_string(*ours) : "-";
        if (v[what] != want) differ(key + ": " + what + " libsframe " + v[what] + ", elfmeta " + want + " (" + sframe::describe(*s, abi) + ")");
      };
      expect("undef", s->outermost ? 1 : 0);
      if (s->outermost) continue;
      expect("cfa", s->cfa_offset);
      // RA and FP: a slot's offset, a v2 s390x register word as stored, s390x's RA padding as 0.
      const auto slot = [&](const sframe::Location& l, bool ra) -> std::optional<int64_t> {
        switch (l.kind) {
          case sframe::Location::kAtCfa: return l.offset;
          case sframe::Location::kInRegister: return flex ? 0 : int64_t(int32_t(l.reg)) * 2 + 1;
          case sframe::Location::kOther: return l.offset;
          default: break;
        }
        if (ra && !flex && abi->ra_padding && f.count() >= 2) return 0;  // the padding word
        return std::nullopt;
      };
      if (flex) {
        const sframe::FlexWords fw = sframe::read_flex(f);
        expect("fp", fw.fp.present ? std::optional<int64_t>(fw.fp.offset) : (h.fixed_fp ? std::optional<int64_t>(h.fixed_fp) : std::nullopt));
        if (fw.ra.present)
          expect("ra", fw.ra.offset);
        else
          ++c.flex_ra_not_compared;
      } else {
        expect("fp", slot(s->fp, false));
        expect("ra", slot(s->ra, true));
      }
    }
  }
  if (!(h.flags & sframe::kFdeSorted) || !lookups) return;  // libsframe looks up in sorted sections only
  // libsframe's lookup takes every start as relative to its field
  // (sframe_decoder_get_secrel_func_start_addr), whatever the flag says;
  // without FDE_FUNC_START_PCREL elfmeta counts from the section, as the
  // spec and libsframe's own dumper do.
  if (!(h.flags & sframe::kFuncStartPcrel)) {
    c.finds_not_compared += pcs.size();
    return;
  }
  for (int64_t pc : pcs) {
    ++c.finds;
    const std::string key = "find " + std::to_string(pc);
    const auto hit = sframe::find_fre(t, static_cast<uint64_t>(pc) + t.addr);
    std::string ours = key + " none";
    if (hit) {
      const sframe::Fre f = t.fre(hit->fde, hit->fre);
      ours = key + " " + std::to_string(f.start) + " " + std::to_string(f.info);
    }
    if (lines[key] != ours) differ("libsframe '" + lines[key] + "', elfmeta '" + ours + "'");
  }
}

// PCs around every FRE and at the edges of every function, section-relative.
inline std::vector<int64_t> probe_pcs(const sframe::SframeTable& t, size_t most = 3000) {
  std::vector<int64_t> pcs;
  for (size_t i = 0; i < t.fdes.size() && pcs.size() < most; ++i) {
    if (!t.starts[i].resolved || !t.blocks[i].complete) continue;
    const int64_t start = static_cast<int64_t>(t.starts[i].address - t.addr);
    pcs.push_back(start - 1);
    pcs.push_back(start + t.fdes[i].size);
    if (t.fdes[i].size) pcs.push_back(start + t.fdes[i].size - 1);
    if (t.fdes[i].pc_type() == sframe::kPcMask) continue;  // block-relative starts
    for (sframe::FreCursor c(t, i); !c.done(); c.next()) {
      pcs.push_back(start + c->start);
      pcs.push_back(start + c->start + 1);
    }
  }
  return pcs;
}

}  // namespace elfmeta::testing
