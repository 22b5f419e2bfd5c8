// elfmeta oracle: the running kernel's verdict on each blob.
#include <iostream>

#include "btf/artifact_check.h"
#include "cli.h"
#include "oracle/kernel_btf_oracle.h"

namespace elfmeta::cli {

int run_oracle(Args args) {
  std::vector<std::string> paths;
  while (!args.done()) {
    if (args.peek() == "--vm") throw UsageError("oracle --vm: booting kernels under qemu is not part of this build yet");
    if (args.peek().size() > 1 && args.peek()[0] == '-') throw UsageError("oracle: unknown option '" + args.peek() + "'");
    paths.push_back(args.next());
  }
  if (paths.empty()) throw UsageError("oracle needs at least one FILE");
  std::string why;
  if (!oracle::kernel_btf_oracle_available(&why)) {
    std::cerr << "elfmeta: oracle unavailable: " << why << "\n";
    return 2;
  }
  int status = 0;
  for (const auto& path : paths) {
    auto opened = input::open_input(path);
    if (!opened.artifact) {
      std::cerr << "elfmeta: " << opened.error << "\n";
      status = 2;
      continue;
    }
    auto where = btf::locate_btf(*opened.artifact);
    if (!where) {
      std::cerr << "elfmeta: " << path << ": no BTF to load\n";
      status = 2;
      continue;
    }
    const auto v = oracle::kernel_btf_load(where->data);
    std::cout << path << ": " << (v.accepted ? "accepted" : "rejected");
    if (!v.accepted) std::cout << " errno=" << oracle::errno_name(v.error) << " reason: " << v.reason;
    std::cout << "\n";
  }
  return status;
}

}  // namespace elfmeta::cli
