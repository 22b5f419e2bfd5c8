// C++ exceptions: landing pads and cleanups in the unwound frames.
#include <stdexcept>
#include <string>
#include <vector>

int thrower(int x) {
  if (x > 3) throw std::runtime_error("too big: " + std::to_string(x));
  return x;
}

int catcher(int x) {
  std::vector<std::string> keep(static_cast<size_t>(x % 5), "x");
  try {
    return thrower(x) + static_cast<int>(keep.size());
  } catch (const std::exception& e) {
    return -static_cast<int>(std::string(e.what()).size());
  }
}
