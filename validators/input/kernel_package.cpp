#include "input/kernel_package.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/release.h"

namespace elfmeta::input {
namespace {

namespace fs = std::filesystem;

bool is_module_name(std::string_view p) {
  for (std::string_view suffix : {".ko", ".ko.xz", ".ko.zst", ".ko.gz"})
    if (p.ends_with(suffix)) return true;
  return false;
}

// "usr/lib/modules/VER/REST" or "lib/modules/VER/REST": VER and REST.
struct ModulesPath {
  std::string_view release, rest;
};
std::optional<ModulesPath> modules_path(std::string_view p) {
  if (p.starts_with("usr/")) p.remove_prefix(4);
  if (!p.starts_with("lib/modules/")) return std::nullopt;
  p.remove_prefix(12);
  const size_t slash = p.find('/');
  if (slash == std::string_view::npos || slash == 0) return std::nullopt;
  return ModulesPath{p.substr(0, slash), p.substr(slash + 1)};
}

}  // namespace

// Where each kind of file is in any of the three layouts (kernel_package.h).
KernelFileRole kernel_file_role(std::string_view p) {
  using Role = KernelFileRole;
  if (p.starts_with("boot/vmlinuz-") || p.starts_with("boot/vmlinux-")) return Role::Image;
  if (p.starts_with("boot/System.map-")) return Role::SystemMap;
  if (p.starts_with("boot/config-")) return Role::Config;
  const auto m = modules_path(p);
  if (!m) return Role::Other;
  if (m->rest == "vmlinuz" || m->rest == "vmlinuz.unsigned") return Role::Image;
  if (m->rest == "System.map") return Role::SystemMap;
  if (m->rest == "config") return Role::Config;
  if (is_module_name(m->rest)) return Role::Module;
  return Role::Other;
}

namespace {

using Role = KernelFileRole;
Role role_of(std::string_view p) { return kernel_file_role(p); }

// The release a file of the package names: boot/vmlinuz-VER or a modules path.
std::string release_of_path(std::string_view p) {
  for (std::string_view prefix : {"boot/vmlinuz-", "boot/vmlinux-", "boot/config-", "boot/System.map-"})
    if (p.starts_with(prefix)) return std::string(p.substr(prefix.size()));
  if (const auto m = modules_path(p)) return std::string(m->release);
  return "";
}

bool starts_with_digit(std::string_view s) { return !s.empty() && s.front() >= '0' && s.front() <= '9'; }

}  // namespace

std::string_view kernel_package_kind_name(KernelPackageKind k) {
  switch (k) {
    case KernelPackageKind::Image: return "linux-image";
    case KernelPackageKind::Binary: return "linux-binary";
    case KernelPackageKind::Modules: return "linux-modules";
    case KernelPackageKind::Base: return "linux-base";
    case KernelPackageKind::Unknown: break;
  }
  return "not a kernel package";
}

KernelPackageId kernel_package_id(std::string_view package, std::string_view version) {
  KernelPackageId id{std::string(package), std::string(version), KernelPackageKind::Unknown, ""};
  // Longest prefixes first: linux-binary-unsigned- before linux-binary-.
  static constexpr std::pair<std::string_view, KernelPackageKind> kPrefixes[] = {
      {"linux-binary-unsigned-", KernelPackageKind::Binary}, {"linux-binary-", KernelPackageKind::Binary},
      {"linux-modules-", KernelPackageKind::Modules},        {"linux-base-", KernelPackageKind::Base},
      {"linux-image-", KernelPackageKind::Image},
  };
  for (const auto& [prefix, kind] : kPrefixes) {
    if (!package.starts_with(prefix)) continue;
    std::string_view rest = package.substr(prefix.size());
    if (rest.ends_with("-dbg")) return id;  // the debug symbols: not a package elfmeta reads
    if (kind == KernelPackageKind::Image && rest.ends_with("-unsigned")) rest.remove_suffix(9);
    id.kind = kind;
    // linux-image-cloud-amd64 is the flavour's metapackage: no release.
    if (starts_with_digit(rest)) id.release = std::string(rest);
    return id;
  }
  return id;
}

std::optional<KernelPackageId> identify_kernel_package(const std::string& path, std::string& error) {
  const auto control = read_debian_control(path, error);
  if (!control) return std::nullopt;
  const auto package = control_field(*control, "Package");
  if (!package) {
    error = path + ": the control file has no Package field";
    return std::nullopt;
  }
  return kernel_package_id(*package, control_field(*control, "Version").value_or(""));
}

std::string companion_package(const KernelPackageId& id, KernelPackageKind want) {
  if (id.release.empty() || want == KernelPackageKind::Unknown) return "";
  // Up to 6.18 one linux-image package holds everything; from 6.19 it is a
  // metapackage over linux-binary, linux-modules and linux-base.
  const auto release = parse_release(id.release);
  const bool split = release && *release >= Release{6, 19};
  if (id.kind == KernelPackageKind::Image && want != KernelPackageKind::Image && !split) return id.package;
  return std::string(kernel_package_kind_name(want)) + "-" + id.release;
}

bool is_kernel_image_path(std::string_view path) { return role_of(path) == Role::Image; }

bool is_debian_package_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  uint8_t head[32] = {};
  in.read(reinterpret_cast<char*>(head), sizeof head);
  return is_debian_package(std::span<const uint8_t>(head, static_cast<size_t>(in.gcount())));
}

bool stream_kernel_package(const std::string& path, KernelPackageId& id,
                           const std::function<void(KernelFileRole, PackageFile&&)>& on_file, const InputLimits& limits,
                           std::vector<Diagnostic>& refusals, std::string& error) {
  std::string no_control;
  if (auto named = identify_kernel_package(path, no_control)) id = std::move(*named);
  return stream_debian_package(
      path, [](std::string_view p) { return role_of(p) != Role::Other; },
      [&](PackageFile&& f) {
        if (id.release.empty()) id.release = release_of_path(f.path);
        const Role role = role_of(f.path);
        on_file(role, std::move(f));
      },
      limits, refusals, error);
}

std::optional<KernelPackage> read_kernel_package(const std::string& path, std::string& error) {
  KernelPackage package;
  package.path = path;
  // The control file names the package; a .deb without one is still read
  // for its files (the data member decides what it holds).
  std::string no_control;
  if (auto id = identify_kernel_package(path, no_control)) package.id = std::move(*id);
  auto files = read_debian_package(path, [](std::string_view p) { return role_of(p) != Role::Other; }, error);
  if (!files) return std::nullopt;
  for (PackageFile& f : *files) {
    if (package.id.release.empty()) package.id.release = release_of_path(f.path);
    switch (role_of(f.path)) {
      case Role::Image: package.images.push_back(std::move(f)); break;
      case Role::Module: package.modules.push_back(std::move(f)); break;
      case Role::SystemMap: package.system_map = std::move(f); break;
      case Role::Config: package.config = std::move(f); break;
      case Role::Other: break;
    }
  }
  return package;
}

std::optional<std::string> config_value(const std::vector<uint8_t>& config, std::string_view name) {
  const std::string_view text(reinterpret_cast<const char*>(config.data()), config.size());
  const std::string key = "CONFIG_" + std::string(name) + "=";
  for (size_t pos = 0; pos < text.size();) {
    const size_t eol = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, eol - pos);
    if (line.starts_with(key)) return std::string(line.substr(key.size()));
    pos = eol + 1;
  }
  return std::nullopt;
}

namespace {

// A modules directory (.../lib/modules/VER) as a kernel: its modules, and
// its image, System.map and config beside them (7.2+) or in the root's
// /boot (older layouts; `root` empty when not known).
KernelTree tree_of(const fs::path& dir, const fs::path& root) {
  KernelTree t;
  t.release = dir.filename().string();
  std::error_code ec;
  auto present = [&](const fs::path& p) { return fs::is_regular_file(p, ec) ? p.string() : std::string(); };
  for (const char* name : {"vmlinuz", "vmlinuz.unsigned"})
    if (t.image.empty()) t.image = present(dir / name);
  t.system_map = present(dir / "System.map");
  t.config = present(dir / "config");
  if (!root.empty()) {
    const fs::path boot = root / "boot";
    if (t.image.empty()) t.image = present(boot / ("vmlinuz-" + t.release));
    if (t.system_map.empty()) t.system_map = present(boot / ("System.map-" + t.release));
    if (t.config.empty()) t.config = present(boot / ("config-" + t.release));
  }
  // Modules are under kernel/ (and updates/, extra/ of out-of-tree
  // packages): every module file below the directory. The walk does not
  // follow directory links, so a hostile tree cannot loop.
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec))
    if (it->is_regular_file(ec) && is_module_name(it->path().filename().string())) t.modules.push_back(it->path().string());
  std::sort(t.modules.begin(), t.modules.end());
  return t;
}

// The root above a modules directory: R of R/lib/modules/VER or R/usr/lib/modules/VER.
fs::path root_of_modules_dir(const fs::path& dir) {
  const fs::path modules = dir.parent_path(), lib = modules.parent_path();
  if (modules.filename() != "modules" || lib.filename() != "lib") return {};
  const fs::path above = lib.parent_path();
  return above.filename() == "usr" ? above.parent_path() : above;
}

}  // namespace

std::vector<KernelTree> find_kernel_trees(const std::string& dir, std::string& error) {
  std::vector<KernelTree> out;
  std::error_code ec;
  const fs::path d = fs::path(dir).lexically_normal();
  if (!fs::is_directory(d, ec)) {
    error = dir + ": not a directory";
    return out;
  }
  // One modules directory: it has kernel/, or the image of 7.2+.
  if (fs::exists(d / "kernel", ec) || fs::exists(d / "vmlinuz", ec) || fs::exists(d / "modules.order", ec)) {
    out.push_back(tree_of(d, root_of_modules_dir(fs::absolute(d, ec))));
    return out;
  }
  // A root: every modules directory under lib/ and usr/lib/, once.
  std::set<fs::path> seen;
  for (const char* where : {"usr/lib/modules", "lib/modules"}) {
    const fs::path modules = d / where;
    if (!fs::is_directory(modules, ec)) continue;
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(modules, ec))
      if (e.is_directory(ec)) dirs.push_back(e.path());
    std::sort(dirs.begin(), dirs.end());
    for (const fs::path& m : dirs) {
      const fs::path canonical = fs::weakly_canonical(m, ec);
      if (!seen.insert(ec ? m : canonical).second) continue;
      KernelTree t = tree_of(m, d);
      if (!t.image.empty() || !t.modules.empty()) out.push_back(std::move(t));
    }
  }
  // A /boot with images whose modules are not installed.
  std::set<std::string> releases;
  for (const auto& t : out) releases.insert(t.release);
  std::vector<fs::path> images;
  for (const auto& e : fs::directory_iterator(d / "boot", ec))
    if (e.path().filename().string().starts_with("vmlinuz-")) images.push_back(e.path());
  std::sort(images.begin(), images.end());
  for (const fs::path& image : images) {
    const std::string release = image.filename().string().substr(8);
    if (releases.count(release)) continue;
    KernelTree t;
    t.release = release;
    t.image = image.string();
    for (const auto& [field, name] : {std::pair{&t.system_map, "System.map-"}, std::pair{&t.config, "config-"}})
      if (fs::is_regular_file(d / "boot" / (name + release), ec)) *field = (d / "boot" / (name + release)).string();
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace elfmeta::input
