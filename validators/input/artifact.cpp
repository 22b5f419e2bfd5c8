#include "input/artifact.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "btf/parse.h"
#include "input/compressed_dwarf.h"
#include "input/decompress.h"
#include "input/input_rules.h"

namespace elfmeta::input {
namespace {

constexpr size_t kMaxFileSize = size_t(4) << 30;
constexpr int kMaxNesting = 3;  // compressed boot image of a compressed ... at most

std::string basename_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool read_file(const std::string& path, std::vector<uint8_t>& out, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = path + ": " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    error = path + ": is a directory";
    return false;
  }
  out.clear();
  if (st.st_size > 0) out.reserve(static_cast<size_t>(st.st_size));
  uint8_t buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = path + ": " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    if (out.size() + static_cast<size_t>(n) > kMaxFileSize) {
      error = path + ": larger than 4 GiB";
      ::close(fd);
      return false;
    }
    out.insert(out.end(), buf, buf + n);
  }
  ::close(fd);
  return true;
}

uint32_t le32(std::span<const uint8_t> d, size_t off) {
  uint32_t v;
  std::memcpy(&v, d.data() + off, 4);
  return v;
}

// The compressed kernel inside a boot image: x86 bzImage (setup header
// "HdrS", protocol 2.08+ payload fields) or an EFI zboot image ("zimg").
std::optional<std::span<const uint8_t>> boot_image_payload(std::span<const uint8_t> d, std::string& what) {
  if (d.size() >= 0x250 && std::memcmp(d.data() + 0x202, "HdrS", 4) == 0) {
    const uint16_t version = uint16_t(d[0x206]) | uint16_t(d[0x207]) << 8;
    if (version < 0x208) return std::nullopt;
    const uint64_t setup_sects = d[0x1f1] ? d[0x1f1] : 4;
    const uint64_t start = (setup_sects + 1) * 512 + le32(d, 0x248);
    const uint64_t len = le32(d, 0x24c);
    if (start > d.size() || len > d.size() - start) return std::nullopt;
    what = "bzImage payload";
    return d.subspan(start, len);
  }
  if (d.size() >= 64 && d[0] == 'M' && d[1] == 'Z' && std::memcmp(d.data() + 4, "zimg", 4) == 0) {
    const uint64_t start = le32(d, 8), len = le32(d, 12);
    if (start > d.size() || len > d.size() - start) return std::nullopt;
    what = "EFI zboot payload";
    return d.subspan(start, len);
  }
  return std::nullopt;
}

struct ElfHandle {
  Elf* elf = nullptr;
  ~ElfHandle() {
    if (elf) elf_end(elf);
  }
};

// A section compressed in the file (SHF_COMPRESSED): its header says how
// large it expands, which is weighed as a compressed file's output is, by
// the expansion ratio, against what one artifact may hold with the sections
// expanded before it (`expanded`), and against the run's budget; nullopt
// when within them, else the refusal. A few megabytes of zlib claiming
// gigabytes in a section are otherwise expanded as the file is opened.
std::optional<Diagnostic> weigh_compressed_section(const Artifact& a, const Section& s, Elf_Scn* scn,
                                                   const OpenOptions& options, uint64_t& expanded) {
  static const InputLimits kDefaults;
  const InputLimits& limits = options.budget ? options.budget->limits() : kDefaults;
  GElf_Chdr ch;
  if (!gelf_getchdr(scn, &ch)) return std::nullopt;  // libelf will not expand it either
  const std::string sizes = "section " + s.name + ": " + size_text(s.size) + " compressed, claiming " + size_text(ch.ch_size);
  const uint64_t by_ratio = expansion_allowance(s.size, limits.max_expansion, options.expansion_floor);
  if (ch.ch_size > by_ratio)
    return refusal(rules::INPUT_001, a.name, sizes + ", over " + std::to_string(limits.max_expansion) +
                                                 " times its size (--max-expansion); not checked");
  if (ch.ch_size > limits.max_artifact_bytes - std::min(expanded, limits.max_artifact_bytes))
    return refusal(rules::INPUT_002, a.name, sizes + ", past --max-artifact-size " + size_text(limits.max_artifact_bytes) +
                                                 " with the sections before it; not checked");
  const uint64_t granted = options.budget ? options.budget->reserve(ch.ch_size) : ch.ch_size;
  if (granted < ch.ch_size) {
    options.budget->give_back(granted);
    return refusal(rules::INPUT_003, a.name, sizes + ", past what --max-decompressed " +
                                                 size_text(limits.max_total_bytes) + " has left for this run; not checked");
  }
  expanded += ch.ch_size;
  return std::nullopt;
}

bool load_elf(Artifact& a, std::shared_ptr<std::vector<uint8_t>> bytes, const OpenOptions& options, std::string& error,
              std::optional<Diagnostic>& refused) {
  static const bool initialised = elf_version(EV_CURRENT) != EV_NONE;
  if (!initialised) {
    error = "libelf initialisation failed";
    return false;
  }
  auto handle = std::make_shared<ElfHandle>();
  handle->elf = elf_memory(reinterpret_cast<char*>(bytes->data()), bytes->size());
  if (!handle->elf || elf_kind(handle->elf) != ELF_K_ELF) {
    error = a.path + ": not a readable ELF file (" + elf_errmsg(-1) + ")";
    return false;
  }
  GElf_Ehdr eh;
  if (!gelf_getehdr(handle->elf, &eh)) {
    error = a.path + ": unreadable ELF header (" + std::string(elf_errmsg(-1)) + ")";
    return false;
  }
  const uint64_t shentsize = eh.e_ident[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
  size_t shnum = 0;
  if (elf_getshdrnum(handle->elf, &shnum) != 0 || eh.e_shoff > bytes->size() ||
      shnum * shentsize > bytes->size() - eh.e_shoff) {
    error = a.path + ": truncated ELF file (the section header table lies past its end)";
    return false;
  }
  a.kind = ArtifactKind::Elf;
  a.elf64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
  a.endian = eh.e_ident[EI_DATA] == ELFDATA2MSB ? Endian::Big : Endian::Little;
  a.elf_type = eh.e_type;
  a.machine = eh.e_machine;
  size_t shstrndx = 0;
  if (elf_getshdrstrndx(handle->elf, &shstrndx) != 0) {
    error = a.path + ": no section name table (" + std::string(elf_errmsg(-1)) + ")";
    return false;
  }
  // Section names are copies (Section::name is a std::string): whole while
  // the names copied stay within a budget no real file reaches (four times
  // the file's size, for names that share a tail; plus 1 MiB), then cut at
  // kCutSectionName bytes. S headers that all name one L-byte string would
  // otherwise cost S x L (2,000 sections of one 1 MB name: 2 GB).
  constexpr size_t kCutSectionName = 256;
  uint64_t name_budget = 4 * uint64_t{bytes->size()} + (uint64_t{1} << 20);
  uint64_t expanded = 0;  // bytes of the compressed sections expanded so far
  for (Elf_Scn* scn = elf_nextscn(handle->elf, nullptr); scn; scn = elf_nextscn(handle->elf, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh)) continue;
    Section s;
    if (const char* name = elf_strptr(handle->elf, shstrndx, sh.sh_name)) {  // NUL-terminated: libelf checks
      const size_t n = name_budget ? std::strlen(name) : strnlen(name, kCutSectionName);
      s.name.assign(name, std::min<uint64_t>(n, std::max<uint64_t>(name_budget, kCutSectionName)));
      name_budget -= std::min<uint64_t>(name_budget, s.name.size());
    }
    s.index = static_cast<uint32_t>(elf_ndxscn(scn));
    s.type = sh.sh_type;
    s.flags = sh.sh_flags;
    s.addr = sh.sh_addr;
    s.file_offset = sh.sh_offset;
    s.size = sh.sh_size;
    s.link = sh.sh_link;
    s.info = sh.sh_info;
    s.addralign = sh.sh_addralign;
    s.entsize = sh.sh_entsize;
    // Compressed DWARF stays so: no check reads its bytes through the
    // artifact, and the readers that give the file to libdw weigh it first
    // (input/compressed_dwarf.h).
    const bool compressed = sh.sh_flags & SHF_COMPRESSED;
    if (sh.sh_type != SHT_NOBITS && !(compressed && is_dwarf_section(s.name))) {
      if (compressed) {
        refused = weigh_compressed_section(a, s, scn, options, expanded);
        if (refused) {
          error = a.path + ": " + refused->message;
          return false;
        }
        elf_compress(scn, 0, 0);
      }
      if (Elf_Data* d = compressed ? elf_getdata(scn, nullptr) : elf_rawdata(scn, nullptr); d && d->d_buf)
        s.data = {static_cast<const uint8_t*>(d->d_buf), d->d_size};
    }
    a.sections.push_back(std::move(s));
  }
  size_t phnum = 0;
  if (elf_getphdrnum(handle->elf, &phnum) == 0)
    for (size_t i = 0; i < phnum; ++i) {
      GElf_Phdr ph;
      if (!gelf_getphdr(handle->elf, static_cast<int>(i), &ph)) continue;
      a.segments.push_back({ph.p_type, ph.p_flags, ph.p_offset, ph.p_vaddr, ph.p_filesz, ph.p_memsz, ph.p_align});
    }
  a.index_sections();
  a.content = *bytes;
  a.storage.push_back(bytes);
  a.storage.push_back(handle);
  return true;
}

// A blob that is one format's bytes on its own, kept whole.
OpenResult raw_blob(std::unique_ptr<Artifact> a, std::shared_ptr<std::vector<uint8_t>> bytes, ArtifactKind kind,
                    Endian endian) {
  a->kind = kind;
  a->raw = a->content = *bytes;
  a->endian = endian;
  a->storage.push_back(bytes);
  return {std::move(a), ""};
}

// `payload` decompressed within the limits: an artifact's size, the
// expansion ratio, and what the run's budget has left; a refusal names the
// limit that stopped it.
OpenResult decompress_within_limits(const Artifact& a, Compression c, std::span<const uint8_t> payload,
                                    const OpenOptions& options, uint64_t size_hint, Decompressed& out) {
  static const InputLimits kDefaults;
  const InputLimits& limits = options.budget ? options.budget->limits() : kDefaults;
  // The whole output against the whole input; the decoder also stops as
  // soon as the output outgrows what it has read (ExpansionGuard), which
  // finds a bomb after a megabyte instead of after all it is allowed.
  const uint64_t by_ratio = expansion_allowance(payload.size(), limits.max_expansion, options.expansion_floor);
  const uint64_t cap = std::min(limits.max_artifact_bytes, by_ratio);
  const uint64_t granted = options.budget ? options.budget->reserve(cap) : cap;
  const std::string sizes = size_text(payload.size()) + " of " + std::string(compression_name(c));
  if (granted == 0)
    return {nullptr, a.path + ": not decompressed: the run's decompression budget is spent",
            refusal(rules::INPUT_003, a.name,
                    sizes + " not decompressed: the run has decompressed " + size_text(options.budget->used()) +
                        " of --max-decompressed " + size_text(limits.max_total_bytes) + "; not checked")};
  out = decompress(c, payload, static_cast<size_t>(std::min<uint64_t>(granted, SIZE_MAX)),
                   ExpansionGuard{limits.max_expansion, options.expansion_floor}, size_hint);
  // What was decoded stays charged, refused or not: a thousand bombs spend
  // the budget instead of being decoded one after the other.
  const uint64_t decoded = out.over_limit || out.over_ratio ? out.produced : out.bytes.size();
  if (options.budget) options.budget->give_back(granted - std::min(granted, decoded));
  if (out.over_ratio) {
    out.bytes = {};
    const std::string why = sizes + ": its first " + size_text(out.consumed) + " expand to " + size_text(out.produced) +
                            " and more, over " + std::to_string(limits.max_expansion) + " times (--max-expansion)";
    return {nullptr, a.path + ": " + why, refusal(rules::INPUT_001, a.name, why + "; not checked")};
  }
  if (!out.over_limit) return {};
  const std::string past = "more than " + size_text(granted) + " after decompression";
  const Rule* rule = &rules::INPUT_002;
  std::string why = sizes + " expands to " + past + ", past --max-artifact-size " + size_text(limits.max_artifact_bytes);
  if (granted < cap) {
    rule = &rules::INPUT_003;
    why = sizes + " expands to " + past + ", past what --max-decompressed " + size_text(limits.max_total_bytes) +
          " has left for this run";
  } else if (by_ratio < limits.max_artifact_bytes) {
    rule = &rules::INPUT_001;
    why = sizes + " expands to " + past + ", over " + std::to_string(limits.max_expansion) +
          " times its size (--max-expansion)";
  }
  out.bytes = {};
  return {nullptr, a.path + ": " + why, refusal(*rule, a.name, why + "; not checked")};
}

OpenResult recognise(std::unique_ptr<Artifact> a, std::shared_ptr<std::vector<uint8_t>> bytes, int depth,
                     const OpenOptions& options) {
  const std::span<const uint8_t> d(*bytes);
  if (btf::looks_like_btf(d))
    return raw_blob(std::move(a), bytes, ArtifactKind::RawBtf, d[0] == 0x9f ? Endian::Little : Endian::Big);
  // A .sframe section on its own: the magic 0xdee2 in either byte order, as
  // raw BTF is recognised by its magic. A version elfmeta does not know, or a
  // header cut short, is then a finding of the SFrame checks.
  if (d.size() >= 2 && ((d[0] == 0xe2 && d[1] == 0xde) || (d[0] == 0xde && d[1] == 0xe2)))
    return raw_blob(std::move(a), bytes, ArtifactKind::RawSframe, d[0] == 0xe2 ? Endian::Little : Endian::Big);
  if (d.size() >= 4 && std::memcmp(d.data(), "\x7f" "ELF", 4) == 0) {
    std::string error;
    std::optional<Diagnostic> refused;
    if (!load_elf(*a, bytes, options, error, refused)) return {nullptr, error, std::move(refused)};
    return {std::move(a), ""};
  }
  if (depth >= kMaxNesting) return {nullptr, a->path + ": compressed data nested too deeply"};
  std::string what;
  std::span<const uint8_t> payload = d;
  if (auto boot = boot_image_payload(d, what)) payload = *boot;
  const Compression c = detect_compression(payload);
  if (c == Compression::None) {
    if (!what.empty()) return {nullptr, a->path + ": " + what + " is not in a known compression format"};
    return {nullptr, a->path + ": not BTF, ELF, a kernel image or a compressed file"};
  }
  // A kernel image's payload ends in the size of what it decompresses to
  // (the kernel build's size_append): the output is allocated once.
  const uint64_t size_hint = !what.empty() && payload.size() >= 4 ? le32(payload, payload.size() - 4) : 0;
  Decompressed out;
  if (OpenResult refused = decompress_within_limits(*a, c, payload, options, size_hint, out); refused.refusal)
    return refused;
  if (!out.error.empty()) return {nullptr, a->path + ": " + out.error};
  const std::string step = (what.empty() ? "" : what + ", ") + std::string(compression_name(c));
  a->origin = a->origin.empty() ? step : a->origin + "; " + step;
  return recognise(std::move(a), std::make_shared<std::vector<uint8_t>>(std::move(out.bytes)), depth + 1, options);
}

}  // namespace

namespace {
uint64_t name_hash(std::string_view n) { return std::hash<std::string_view>()(n); }
bool has_module_sections(const Artifact& a) {
  return a.section(".gnu.linkonce.this_module") || a.section(".modinfo");
}
bool has_vmlinux_sections(const Artifact& a) {
  return a.section("__ksymtab") || a.section(".BTF") || a.section("__ksymtab_strings");
}
}  // namespace

void Artifact::index_sections() {
  lookup_ = SectionLookup{};
  for (size_t pos = 0; pos < sections.size(); ++pos) {
    const uint32_t index = sections[pos].index;
    // ELF indexes run 1..e_shnum in the reader; a hand-built artifact's
    // wilder index is left to the linear search.
    if (index > sections.size()) return;
    if (index >= lookup_.by_index.size()) lookup_.by_index.resize(size_t{index} + 1, 0);
    if (!lookup_.by_index[index]) lookup_.by_index[index] = static_cast<uint32_t>(pos + 1);
    lookup_.by_name.emplace_back(name_hash(sections[pos].name), static_cast<uint32_t>(pos));
  }
  std::sort(lookup_.by_name.begin(), lookup_.by_name.end());
  // Keep the first position of each name: within a run of equal hashes the
  // names differ only by a collision, so the run keeps one entry per name.
  std::vector<std::pair<uint64_t, uint32_t>> firsts;
  firsts.reserve(lookup_.by_name.size());
  size_t run = 0;  // where the current hash's entries start in `firsts`
  for (const auto& entry : lookup_.by_name) {
    if (firsts.empty() || firsts.back().first != entry.first) run = firsts.size();
    const std::string& n = sections[entry.second].name;
    bool seen = false;
    for (size_t k = run; k < firsts.size() && !seen; ++k) seen = sections[firsts[k].second].name == n;
    if (!seen) firsts.push_back(entry);
  }
  lookup_.by_name = std::move(firsts);
  lookup_.indexed = sections.size();
  lookup_.module_sections = has_module_sections(*this);
  lookup_.vmlinux_sections = has_vmlinux_sections(*this);
}

const Section* Artifact::section(std::string_view n) const {
  if (!indexed()) {
    for (const auto& s : sections)
      if (s.name == n) return &s;
    return nullptr;
  }
  const uint64_t h = name_hash(n);
  for (auto it = std::lower_bound(lookup_.by_name.begin(), lookup_.by_name.end(), std::pair<uint64_t, uint32_t>(h, 0));
       it != lookup_.by_name.end() && it->first == h; ++it)
    if (sections[it->second].name == n) return &sections[it->second];
  return nullptr;
}

const Section* Artifact::section_at(uint32_t index) const {
  if (!indexed()) {
    for (const auto& s : sections)
      if (s.index == index) return &s;
    return nullptr;
  }
  const uint32_t pos = index < lookup_.by_index.size() ? lookup_.by_index[index] : 0;
  return pos ? &sections[pos - 1] : nullptr;
}

bool Artifact::is_kernel_module() const {
  return kind == ArtifactKind::Elf && (indexed() ? lookup_.module_sections : has_module_sections(*this));
}

bool Artifact::is_vmlinux() const {
  return kind == ArtifactKind::Elf && elf_type == ET_EXEC && !is_kernel_module() &&
         (indexed() ? lookup_.vmlinux_sections : has_vmlinux_sections(*this));
}

OpenResult open_bytes(std::string path, std::vector<uint8_t> bytes, const OpenOptions& options) {
  const Format as = options.as;
  auto a = std::make_unique<Artifact>();
  a->name = basename_of(path);
  a->path = std::move(path);
  if (a->path.rfind("/sys/kernel/btf/", 0) == 0 && a->name != "vmlinux") a->implied_btf_base = "/sys/kernel/btf/vmlinux";
  auto held = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
  if (as != Format::Auto) {
    // The byte order from the magic where there is one; else the host's.
    const std::span<const uint8_t> d(*held);
    const bool big = as == Format::Btf ? d.size() >= 2 && d[0] == 0xeb && d[1] == 0x9f
                                       : d.size() >= 2 && d[0] == 0xde && d[1] == 0xe2;
    return raw_blob(std::move(a), held, as == Format::Btf ? ArtifactKind::RawBtf : ArtifactKind::RawSframe,
                    big ? Endian::Big : Endian::Little);
  }
  return recognise(std::move(a), held, 0, options);
}

OpenResult open_input(const std::string& path, const OpenOptions& options) {
  std::vector<uint8_t> bytes;
  std::string error;
  if (!read_file(path, bytes, error)) return {nullptr, error};
  if (bytes.empty() && options.as == Format::Auto) return {nullptr, path + ": empty file"};
  return open_bytes(path, std::move(bytes), options);
}

}  // namespace elfmeta::input
