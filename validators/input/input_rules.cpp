#include "input/input_rules.h"

namespace elfmeta::input::rules {
namespace {

// Every consumer: these are elfmeta's own limits, errors whichever verdict
// was asked for.
constexpr uint32_t kEvery = kBpfBtfLoad | kModuleLoad | kLibbpf | kUnwinder | kLibsframe | kSframeKernel | kBpfObject;

}  // namespace

const Rule INPUT_001{"INPUT-001", Severity::Error, kEvery, "compressed data expands more than the ratio allows",
                     "A compressed file (a module's .ko.xz, a vmlinuz payload, any input) whose output grows "
                     "past --max-expansion times its compressed size (1000x by default; real modules and "
                     "images expand 3-6x) is refused when it gets there, without decoding the rest: a few "
                     "kilobytes can claim gigabytes. The rest of the package is still checked. An ELF "
                     "section compressed in the file (SHF_COMPRESSED) whose header claims more is refused "
                     "before it is expanded; compressed DWARF is not expanded when the file is opened, and "
                     "XC-DW leaves DWARF claiming more than 64 times its size unread, with a note.",
                     "", "",
                     "m.ko.xz: an xz stream of an ELF module padded with 8 MiB of zeros, opened under a 1 MiB "
                     "expansion limit."};
const Rule INPUT_002{"INPUT-002", Severity::Error, kEvery, "decompressed artifact larger than the limit",
                     "One artifact may decompress to at most --max-artifact-size bytes (512 MiB by default; "
                     "the largest real kernel image is about 70 MB).",
                     "", "",
                     "b.ko.gz: a gzip of a 3 MiB module, opened with --max-artifact-size 1 MiB."};
const Rule INPUT_003{"INPUT-003", Severity::Error, kEvery, "the run's decompression budget is spent",
                     "All decompressions of one run together may produce at most --max-decompressed bytes "
                     "(8 GiB by default; Debian's generic 6.12 package is about 0.6 GB of modules). Inputs "
                     "past it are not decompressed and not checked, each with this finding.",
                     "", "",
                     "c.ko.xz opened with a run budget (--max-decompressed) of 1 byte, already spent."};
const Rule INPUT_004{"INPUT-004", Severity::Error, kEvery, "archive with more entries than the limit",
                     "A package's data archive may hold at most a million entries (a kernel package has "
                     "about 5,000); past that it is not read further.",
                     "", "",
                     "two.deb with two data members (./a, ./b), read with an archive entry limit of 1."};
const Rule INPUT_005{"INPUT-005", Severity::Error, kEvery, "package member larger than the limit",
                     "A file read out of a package may be at most 1 GiB as stored there (the largest "
                     "in Debian's kernel packages is a 120 MB -dbg vmlinux); a larger one is skipped, "
                     "and its control or data member alike.",
                     "", "",
                     "one.deb whose member ./a is 2 bytes, read with a member size limit of 1 byte."};

namespace {
const Rule* const kTable[] = {&INPUT_001, &INPUT_002, &INPUT_003, &INPUT_004, &INPUT_005};
}  // namespace

std::span<const Rule* const> table() { return kTable; }

}  // namespace elfmeta::input::rules
