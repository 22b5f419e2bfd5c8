// Generated CFI programs assembled with gas 2.40: for the patterns gas
// represents in SFrame (pushes and pops with their offsets, a frame pointer
// set up and torn down, stack adjustments, remembered and restored states
// for early exits) the SFrame it writes agrees with the CFI at every PC
// (../shared/spec/sframe.md §3.1), and every function has an FDE: in the
// object, compared at (section, offset), and in the shared object.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/diagnostic.h"
#include "input/artifact.h"
#include "sframe/verifier.h"

namespace elfmeta::testing {
namespace {

namespace fs = std::filesystem;

const char* const kSaved[] = {"rbx", "r12", "r13", "r14", "r15"};

// One function: a prologue of pushes (and maybe a frame pointer and a
// stack adjustment), a body of nops with early exits that restore the
// state they remembered, and the epilogue.
std::string function(const std::string& name) {
  std::ostringstream s;
  s << "\t.globl " << name << "\n\t.type " << name << ", @function\n" << name << ":\n\t.cfi_startproc\n";
  int cfa = 8;
  const bool fp = *rc::gen::arbitrary<bool>();
  std::vector<std::string> pushed;
  if (fp) {
    s << "\tpushq %rbp\n\t.cfi_def_cfa_offset 16\n\t.cfi_offset rbp, -16\n\tmovq %rsp, %rbp\n\t.cfi_def_cfa_register rbp\n";
    cfa = 16;
  }
  const int saves = *rc::gen::inRange(0, 6);
  for (int k = 0; k < saves; ++k) {
    const std::string reg = kSaved[k];
    cfa += 8;
    s << "\tpushq %" << reg << "\n";
    if (!fp) s << "\t.cfi_def_cfa_offset " << cfa << "\n";
    s << "\t.cfi_offset " << reg << ", -" << cfa << "\n";
    pushed.push_back(reg);
  }
  const int frame = 8 * *rc::gen::inRange(0, 40);
  if (frame) {
    s << "\tsubq $" << frame << ", %rsp\n";
    if (!fp) s << "\t.cfi_def_cfa_offset " << cfa + frame << "\n";
  }
  auto epilogue = [&] {
    if (frame) {
      s << "\taddq $" << frame << ", %rsp\n";
      if (!fp) s << "\t.cfi_def_cfa_offset " << cfa << "\n";
    }
    int at = cfa;
    for (auto it = pushed.rbegin(); it != pushed.rend(); ++it) {
      s << "\tpopq %" << *it << "\n";
      at -= 8;
      if (!fp) s << "\t.cfi_def_cfa_offset " << at << "\n";
    }
    if (fp) s << "\tpopq %rbp\n\t.cfi_def_cfa rsp, 8\n";
    s << "\tret\n";
  };
  const int exits = *rc::gen::inRange(0, 3);
  for (int e = 0; e < exits; ++e) {
    s << "\t.rept " << *rc::gen::inRange(1, 20) << "\n\tnop\n\t.endr\n";
    s << "\t.cfi_remember_state\n";
    epilogue();
    s << "\t.cfi_restore_state\n";
  }
  s << "\t.rept " << *rc::gen::inRange(1, 40) << "\n\tnop\n\t.endr\n";
  epilogue();
  s << "\t.cfi_endproc\n\t.size " << name << ", .-" << name << "\n";
  return s.str();
}

int run(const std::string& cmd) {
  const int raw = std::system((cmd + " >/dev/null 2>&1").c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

RC_GTEST_PROP(GasCfiProperty, SframeAgreesWithTheCfiGasWroteItFrom, ()) {
  static const bool has_gsframe = run("echo | as --gsframe -o /dev/null -") == 0;
  if (!has_gsframe) RC_DISCARD("as has no --gsframe");
  const int n = *rc::gen::inRange(1, 8);
  std::string program = "\t.text\n";
  for (int i = 0; i < n; ++i) program += function("f" + std::to_string(i));
  program += "\t.section .note.GNU-stack,\"\",@progbits\n";
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() / ("elfmeta-gascfi-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  fs::create_directories(dir);
  {
    std::ofstream(dir / "p.s") << program;
  }
  const bool built = run("as --gsframe " + (dir / "p.s").string() + " -o " + (dir / "p.o").string()) == 0 &&
                     run("ld -shared " + (dir / "p.o").string() + " -o " + (dir / "p.so").string()) == 0;
  // The object (compared at section offsets) and the shared object alike.
  struct Checked {
    std::string listing;
    size_t fdes = 0;
    bool cfi = false;
    bool clean = true;
  };
  auto check = [&](const char* file) {
    Checked c;
    auto opened = input::open_input((dir / file).string());
    if (!opened.artifact) return c;
    DiagnosticList list;
    const auto r = sframe::check_sframe(*opened.artifact, {}, list);
    c.fdes = r.fdes;
    c.cfi = r.cfi_checked;
    for (const auto& d : list.items())
      if (d.rule && d.severity != Severity::Note && std::string(d.rule->id) != "SFRAME-ELF-002") {
        c.clean = false;
        c.listing += d.message + " [" + std::string(d.rule->id) + "]\n";
      }
    return c;
  };
  const Checked object = built ? check("p.o") : Checked{}, shared = built ? check("p.so") : Checked{};
  fs::remove_all(dir);
  RC_ASSERT(built);
  for (const Checked* c : {&object, &shared}) {
    RC_ASSERT(c->cfi);
    if (c->fdes != size_t(n) || !c->clean)
      RC_FAIL(std::string(c == &object ? "p.o: " : "p.so: ") + std::to_string(c->fdes) + " FDEs for " +
              std::to_string(n) + " functions:\n" + c->listing + "\n" + program);
  }
}

}  // namespace
}  // namespace elfmeta::testing
